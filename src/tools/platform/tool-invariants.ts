// The contract every tool is held to at start-up, so that with 170 tools none is silently
// unfindable or malformed: names, descriptions a model can skim, search hints, strict inputs, and a
// budget for tools loaded up front.
import { BridgeError } from "../../errors.ts";
import { TRUNCATION_KEY } from "./result-cap.ts";
import type { Tool, ToolAnnotations } from "./define-tool.ts";
import type { ObjectShape } from "./json-schema.ts";
import type { Toolset } from "./toolset.ts";

const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;
export const MAX_DESCRIPTION_CHARS = 200;
/**
 * Claude Code's ToolSearch scores a query word found in the hint at twice one found in the
 * description, and reads 4,096 characters of it; the hint's bytes go out in every tools/list, so it
 * holds the plain words of the tasks the tool does, not an essay.
 */
export const MAX_SEARCH_HINT_CHARS = 160;
/** `anthropic/alwaysLoad` costs context on every turn: the IDE-exclusive essentials only. */
export const MAX_ALWAYS_LOAD = 8;
/** A description starts with a verb in the third person: "Lists…", "Reads…", "Finds…". */
const STARTS_WITH_VERB = /^[A-Z][a-z]+s\b/;
const TOOLSET_NAME = /^[a-z][a-z0-9-]{1,30}$/;

/**
 * The tool's schemas as the checks need them, read from valibot's schema objects: converting them to
 * JSON Schema was most of the start-up's cost, and waits for the first tools/list.
 */
export interface SchemaShapes {
  input: ObjectShape;
  output: ObjectShape | undefined;
}

export function assertValidTool(tool: Tool, schemas: SchemaShapes): void {
  const fail = (why: string) => new BridgeError("startup_failed", `Tool "${tool.name}": ${why}`);
  if (!TOOL_NAME.test(tool.name)) throw fail("name must be 1-128 chars of [A-Za-z0-9_.-]");
  if (tool.description.trim().length === 0) throw fail("description is empty");
  if (tool.description.length > MAX_DESCRIPTION_CHARS)
    throw fail(`description is ${tool.description.length} chars; at most ${MAX_DESCRIPTION_CHARS}`);
  if (!STARTS_WITH_VERB.test(tool.description))
    throw fail(`description must start with a verb ("Lists…", "Reads…"): ${tool.description.slice(0, 40)}`);
  const hint = tool.searchHint.trim();
  if (hint.length === 0) throw fail("searchHint is empty");
  if (tool.searchHint.length > MAX_SEARCH_HINT_CHARS || /[\r\n]/.test(tool.searchHint))
    throw fail(`searchHint must be one line of at most ${MAX_SEARCH_HINT_CHARS} chars`);
  if (tool.handlers.headless === undefined && tool.handlers.extension === undefined) throw fail("has no handler");
  if (tool.timeoutMs !== undefined && !isValidTimeout(tool.timeoutMs)) throw fail("timeoutMs must be an integer >= 1000");
  const unclear = unclearAnnotations(tool.annotations);
  if (unclear !== undefined) throw fail(unclear);
  const { input, output } = schemas;
  if (!input.object) throw fail("input must be an object schema");
  // Models do pass a wrong key (Claude Code's own Read takes `file_path`): it must be refused, not ignored.
  if (!input.strict) throw fail("input must be a strict object (v.strictObject): unknown arguments are refused");
  if (output !== undefined) {
    if (!output.object) throw fail("output must be an object schema");
    if (output.keys.includes(TRUNCATION_KEY)) throw fail(`output may not use the reserved key ${TRUNCATION_KEY}`);
  }
}

export function assertValidToolsets(toolsets: readonly Toolset[]): void {
  const names = new Set<string>();
  let alwaysLoad = 0;
  for (const toolset of toolsets) {
    const fail = (why: string) => new BridgeError("startup_failed", `Toolset "${toolset.name}": ${why}`);
    if (!TOOLSET_NAME.test(toolset.name)) throw fail("name must be a short lowercase word");
    if (names.has(toolset.name)) throw fail("is registered twice");
    names.add(toolset.name);
    if (toolset.purpose.trim().length === 0 || toolset.purpose.length > 120 || /[\r\n]/.test(toolset.purpose))
      throw fail("purpose must be one line of at most 120 chars");
    if (toolset.tools.length === 0) throw fail("has no tools");
    // Checked here too: a default every tool overrides would otherwise never be looked at.
    const timeout = toolset.defaults?.timeoutMs;
    if (timeout !== undefined && !isValidTimeout(timeout)) throw fail("defaults.timeoutMs must be an integer >= 1000");
    alwaysLoad += toolset.tools.filter((t) => t.alwaysLoad).length;
  }
  if (alwaysLoad > MAX_ALWAYS_LOAD)
    throw new BridgeError(
      "startup_failed",
      `${alwaysLoad} tools set alwaysLoad; at most ${MAX_ALWAYS_LOAD} (each costs context on every turn)`,
    );
}

function isValidTimeout(ms: number): boolean {
  return Number.isInteger(ms) && ms >= 1000;
}

/**
 * What is missing from a tool's statement of its effects (see DeclaredAnnotations): clients treat a
 * missing readOnlyHint as "may write" and a missing destructiveHint as "may destroy", so each tool
 * says both for itself, in the one spelling tools/list then shows.
 */
function unclearAnnotations(annotations: ToolAnnotations): string | undefined {
  const { readOnlyHint, destructiveHint } = annotations;
  if (readOnlyHint === undefined)
    return "annotations must state readOnlyHint: true when the tool changes nothing, else false with destructiveHint";
  if (readOnlyHint && destructiveHint !== undefined)
    return "a read-only tool states no destructiveHint (MCP gives it meaning only when readOnlyHint is false)";
  if (!readOnlyHint && destructiveHint === undefined)
    return "annotations must state destructiveHint when readOnlyHint is false: true if the tool may delete or discard, false if it only creates and edits";
  return undefined;
}
