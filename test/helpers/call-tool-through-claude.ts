// One bridge tool called the way a model calls it through Claude Code, to see the result as the
// model receives it. The scripted model: if the tool is deferred (not callable yet) and ToolSearch
// is offered, it first loads it with `select:<name>`; then it calls the tool with the given
// arguments; once the tool_result is back, it answers with a final text, which the CLI prints.
// Each step is decided from the conversation in the request, not from a counter, so a retried
// request gets the same answer.
import { describeRun, runClaudePrint, DEFAULT_SERVER_NAME, type ClaudePrintOptions, type ClaudePrintRun } from "./claude-print.ts";
import type { ModelScript } from "./fake-model-api.ts";
import { blocksOf, isToolResult, isToolUse, type MessagesRequest, type ToolResultBlock, type ToolUseBlock } from "./model-api-types.ts";

export const TOOL_SEARCH = "ToolSearch";

export interface CallToolOptions extends Omit<ClaudePrintOptions, "script" | "allowedTools"> {
  tool: string;
  args?: Record<string, unknown>;
}

export interface ToolCallThroughClaude {
  /** The tool result as the model reads it: the text of its content (text blocks joined by \n). */
  toolResult: string;
  /** The tool_result block exactly as it was sent to the model. */
  toolResultBlock: ToolResultBlock;
  /** The model-visible tool name, mcp__<server>__<tool>. */
  qualifiedName: string;
  /** The first request did not let the model call the tool, but offered ToolSearch. */
  deferred: boolean;
  toolSearchUsed: boolean;
  /** The user prompt the CLI was given. */
  prompt: string;
  /** The scripted model's final answer; the CLI printed it as its result. */
  finalText: string;
  /** The first main-conversation request: what the model was shown before doing anything. */
  firstTurn: MessagesRequest;
  run: ClaudePrintRun;
}

/** Claude Code's naming: characters outside [A-Za-z0-9_-] become "_". */
export const qualifiedToolName = (server: string, tool: string): string => `mcp__${server}__${tool}`.replace(/[^A-Za-z0-9_-]/g, "_");

const allBlocks = (request: MessagesRequest) => request.messages.flatMap((m) => (m.role === "system" ? [] : blocksOf(m)));
export const toolUses = (request: MessagesRequest): ToolUseBlock[] => allBlocks(request).filter(isToolUse);
export const toolResults = (request: MessagesRequest): ToolResultBlock[] => allBlocks(request).filter(isToolResult);
export const offers = (request: MessagesRequest, name: string) => request.tools?.find((t) => t.name === name);

/** Callable: offered up front, or deferred and already loaded by a ToolSearch tool_reference. */
export function callable(request: MessagesRequest, name: string): boolean {
  const tool = offers(request, name);
  if (!tool) return false;
  if (!tool.defer_loading) return true;
  return toolResults(request).some(
    (r) => Array.isArray(r.content) && r.content.some((b) => b.type === "tool_reference" && b.tool_name === name),
  );
}

function resultFor(request: MessagesRequest, use: ToolUseBlock | undefined): ToolResultBlock | undefined {
  return use && toolResults(request).find((r) => r.tool_use_id === use.id);
}

export function toolCallScript(name: string, opts: { args: Record<string, unknown>; finalText: string }): ModelScript {
  const { args, finalText } = opts;
  return (request) => {
    const uses = toolUses(request);
    if (
      resultFor(
        request,
        uses.find((u) => u.name === name),
      )
    )
      return { text: finalText };
    if (callable(request, name)) return { toolUses: [{ name, input: args }] };
    const search = uses.find((u) => u.name === TOOL_SEARCH);
    if (!search && offers(request, TOOL_SEARCH)) return { toolUses: [{ name: TOOL_SEARCH, input: { query: `select:${name}` } }] };
    const searchResult = resultFor(request, search);
    const offered = (request.tools ?? []).map((t) => t.name).join(", ");
    throw new Error(
      `${name} cannot be called: the request offers [${offered}]` +
        (searchResult ? `; ToolSearch answered ${JSON.stringify(searchResult.content)}` : ""),
    );
  };
}

export function resultText(block: ToolResultBlock): string {
  if (typeof block.content === "string") return block.content;
  return (block.content ?? []).map((b) => b.text ?? "").join("\n");
}

export async function callToolThroughClaude(opts: CallToolOptions): Promise<ToolCallThroughClaude> {
  const qualifiedName = qualifiedToolName(opts.serverName ?? DEFAULT_SERVER_NAME, opts.tool);
  const finalText = `Done: ${qualifiedName} answered.`;
  const script = toolCallScript(qualifiedName, { args: opts.args ?? {}, finalText });
  const prompt = `Call ${qualifiedName} and tell me what it returned.`;
  const run = await runClaudePrint(prompt, { ...opts, script, allowedTools: [qualifiedName] });
  const last = run.turns.at(-1);
  const firstTurn = run.turns[0];
  const block =
    last &&
    resultFor(
      last,
      toolUses(last).find((u) => u.name === qualifiedName),
    );
  if (!firstTurn || !block) throw new Error(`no tool_result of ${qualifiedName} reached the model\n${describeRun(run)}`);
  return {
    toolResult: resultText(block),
    toolResultBlock: block,
    qualifiedName,
    deferred: !callable(firstTurn, qualifiedName) && offers(firstTurn, TOOL_SEARCH) !== undefined,
    toolSearchUsed: toolUses(last).some((u) => u.name === TOOL_SEARCH),
    prompt,
    finalText,
    firstTurn,
    run,
  };
}
