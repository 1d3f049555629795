// batchGetHover, batchGoToDefinition and batchFindImplementations: one position-taking tool asked
// about up to ten positions at once, concurrently, each answer under its own header. One position
// that fails (no server, bad line) is answered with its error; the others still answer.
import * as v from "valibot";
import { ToolError } from "../../errors.ts";
import type { ToolContext } from "../../capabilities/context.ts";
import { defineTool, type Tool } from "../platform/define-tool.ts";
import { positionFields } from "./position-input.ts";

export const MAX_BATCH = 10;

interface BatchSpec {
  name: string;
  title: string;
  description: string;
  searchHint: string;
  /** The single-position tool each position is asked of. */
  single: Tool;
}

const Positions = v.pipe(
  v.array(v.strictObject(positionFields)),
  v.minLength(1),
  v.maxLength(MAX_BATCH),
  v.description(`1-${MAX_BATCH} positions: {file, line, symbol or column}.`),
);

export function batchTool(spec: BatchSpec): Tool {
  return defineTool({
    name: spec.name,
    title: spec.title,
    description: spec.description,
    searchHint: spec.searchHint,
    input: v.strictObject({ positions: Positions }),
    annotations: { readOnlyHint: true },
    slim: true,
    async handler(input, ctx) {
      const answers = await Promise.all(input.positions.map((position) => askOne(spec.single, position, ctx)));
      const failed = answers.filter((a) => a.failed).length;
      const head = `${spec.single.name} at ${answers.length} position${answers.length === 1 ? "" : "s"}${failed > 0 ? ` (${failed} failed)` : ""}:`;
      return [head, ...answers.map((a) => `## ${a.label}\n${a.text}`)].join("\n\n");
    },
  });
}

async function askOne(
  single: Tool,
  position: { file: string; line: number; symbol?: string | undefined; column?: number | undefined },
  ctx: ToolContext,
): Promise<{ label: string; text: string; failed: boolean }> {
  const label = `${position.file}:${position.line}${position.symbol === undefined ? (position.column === undefined ? "" : `:${position.column}`) : ` ${position.symbol}`}`;
  const parsed = v.safeParse(single.input, position);
  const handler = single.handlers.headless;
  if (!parsed.success || handler === undefined)
    return { label, text: `ERROR invalid_arguments: ${parsed.issues?.[0]?.message ?? "not answerable headless"}`, failed: true };
  try {
    const result = await handler(parsed.output, ctx);
    return { label, text: typeof result === "string" ? result : JSON.stringify(result), failed: false };
  } catch (err) {
    if (err instanceof ToolError) return { label, text: `ERROR ${err.code}: ${err.message}`, failed: true };
    throw err;
  }
}
