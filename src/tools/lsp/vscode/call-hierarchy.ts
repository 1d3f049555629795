// getCallHierarchy through VS Code (vscode.prepareCallHierarchy and provideIncoming/OutgoingCalls):
// the extension walks the tree (VS Code's call items cannot leave its process) and the bridge
// prints it as the headless answer is.
import type { ToolContext } from "../../../capabilities/context.ts";
import type { WireSymbol } from "../../../extension/protocol.ts";
import type { PositionInput } from "../../../lsp/positions.ts";
import type { SourceLines } from "../locations.ts";
import { askFeature, placeInVsCode, vsCodeSources } from "./places.ts";

type Direction = "incoming" | "outgoing";

interface CallHierarchyInput extends PositionInput {
  file: string;
  direction: Direction | "both";
  depth?: number;
  maxResults: number;
}

export async function callHierarchyViaVsCode(input: CallHierarchyInput, ctx: ToolContext): Promise<string> {
  const at = await placeInVsCode(input, ctx);
  const directions: Direction[] = input.direction === "both" ? ["incoming", "outgoing"] : [input.direction];
  const answer = await askFeature(at, ctx, {
    feature: "callHierarchy",
    directions,
    depth: input.depth ?? 1,
    maxResults: input.maxResults,
  });
  if (answer.root === undefined) return `${at.note}\`${at.name}\` at ${at.where} is not a function or method VS Code can follow (VS Code).`;
  const sources = vsCodeSources(ctx);
  const out = [`${await label(answer.root, sources)}  (VS Code)`];
  for (const direction of directions) {
    out.push(`  ${direction === "incoming" ? "called by" : "calls"}:`);
    const calls = (answer.calls ?? []).filter((c) => c.direction === direction);
    for (const call of calls) {
      const where = direction === "incoming" && call.at !== undefined ? `  (at line ${call.at.line + 1})` : "";
      out.push(`${"  ".repeat(call.depth + 1)}${await label(call.item, sources)}${where}${call.cycle ? "  (cycle)" : ""}`);
    }
    if (calls.length === 0) out.push("    (none)");
    if (answer.truncated?.includes(direction)) out.push(`    … cut at ${input.maxResults}; raise maxResults`);
  }
  return `${at.note}${out.join("\n")}`;
}

async function label(item: WireSymbol, sources: SourceLines): Promise<string> {
  const { name } = await sources.of(item.uri, true);
  return `${item.name} ${item.kind}  ${name}:${item.range.start.line + 1}:${item.range.start.character + 1}`;
}
