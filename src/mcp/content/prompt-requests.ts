// prompts/list, prompts/get and completion/complete: the protocol side of the bridge's prompts
// (src/prompts/). Argument problems are JSON-RPC -32602 errors naming what to fix (MCP "Prompts":
// invalid prompt name or missing required arguments); what the prompt assembles is src/prompts'.
import * as v from "valibot";
import { ProtocolError, RpcCode } from "../../errors.ts";
import type { PromptCatalog, PromptProblem } from "../../prompts/prompt-catalog.ts";
import type { PromptContext } from "../../prompts/prompt-context.ts";
import type { Params } from "../protocol/jsonrpc.ts";

const GetParams = v.object({ name: v.string(), arguments: v.optional(v.record(v.string(), v.string())) });
const CompleteParams = v.object({
  ref: v.variant("type", [
    v.object({ type: v.literal("ref/prompt"), name: v.string() }),
    v.object({ type: v.literal("ref/resource"), uri: v.string() }),
  ]),
  argument: v.object({ name: v.string(), value: v.string() }),
});

export function listPrompts(catalog: PromptCatalog | undefined): Params {
  return { prompts: catalog?.list() ?? [] };
}

export async function getPrompt(
  params: Params | undefined,
  ctx: PromptContext,
  opts: { catalog: PromptCatalog | undefined },
): Promise<Params> {
  const { catalog } = opts;
  const parsed = v.safeParse(GetParams, params ?? {});
  if (!parsed.success) {
    throw new ProtocolError(RpcCode.invalidParams, "Invalid params: prompts/get takes name (string) and arguments (an object of strings)");
  }
  const { name } = parsed.output;
  if (catalog === undefined) throw problemError({ kind: "unknown_prompt", name, known: [] });
  const checked = catalog.check(name, parsed.output.arguments ?? {});
  if (!checked.ok) throw problemError(checked.problem);
  const text = await checked.prompt.build(checked.args, ctx);
  return {
    description: checked.prompt.description,
    messages: [{ role: "user", content: { type: "text", text } }],
  };
}

export async function completeArgument(
  params: Params | undefined,
  ctx: PromptContext,
  opts: { catalog: PromptCatalog | undefined },
): Promise<Params> {
  const { catalog } = opts;
  const parsed = v.safeParse(CompleteParams, params ?? {});
  if (!parsed.success) {
    throw new ProtocolError(
      RpcCode.invalidParams,
      'Invalid params: completion/complete takes ref ({type:"ref/prompt",name} or {type:"ref/resource",uri}) and argument {name, value}',
    );
  }
  const { ref, argument } = parsed.output;
  // Resource templates take workspace paths; they complete like a prompt's path argument.
  const completion =
    ref.type === "ref/prompt"
      ? await catalog?.complete({ prompt: ref.name, argument: argument.name, value: argument.value }, ctx)
      : undefined;
  if (ref.type === "ref/prompt" && completion === undefined) {
    throw new ProtocolError(RpcCode.invalidParams, `Invalid params: prompt ${ref.name} has no argument ${argument.name}`);
  }
  return { completion: completion ?? { values: [], total: 0, hasMore: false } };
}

function problemError(problem: PromptProblem): ProtocolError {
  switch (problem.kind) {
    case "unknown_prompt":
      return new ProtocolError(
        RpcCode.invalidParams,
        `Invalid params: unknown prompt ${problem.name}${problem.known.length > 0 ? `; prompts/list names the ${problem.known.length} prompts` : ""}`,
      );
    case "missing_argument":
      return new ProtocolError(RpcCode.invalidParams, `Invalid params: prompt ${problem.prompt} needs the argument ${problem.argument}`);
    case "unknown_argument":
      return new ProtocolError(
        RpcCode.invalidParams,
        `Invalid params: prompt ${problem.prompt} has no argument ${problem.argument}; it takes ${problem.known.join(", ") || "none"}`,
      );
  }
}
