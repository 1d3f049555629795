// findReferences through VS Code (vscode.executeReferenceProvider): every reference its language
// features know, rendered as the headless answer is. VS Code's command always counts the
// declaration; without it, the places its definition provider names are left out.
import type { ToolContext } from "../../../capabilities/context.ts";
import type { PositionInput } from "../../../lsp/positions.ts";
import { renderPlaces, sortPlaces } from "../locations.ts";
import type { Verbosity } from "../position-input.ts";
import { askFeature, placeInVsCode, vsCodeSources } from "./places.ts";

interface ReferencesInput extends PositionInput {
  file: string;
  includeDeclaration: boolean;
  verbosity: Verbosity;
  maxResults: number;
}

export async function referencesViaVsCode(input: ReferencesInput, ctx: ToolContext): Promise<string> {
  const at = await placeInVsCode(input, ctx);
  const answer = await askFeature(at, ctx, { feature: "references" });
  let places = sortPlaces(answer.places ?? []);
  if (!input.includeDeclaration) {
    const declared = await askFeature(at, ctx, { feature: "definition" });
    const spots = new Set((declared.places ?? []).map((p) => `${p.uri}:${p.range.start.line}:${p.range.start.character}`));
    places = places.filter((p) => !spots.has(`${p.uri}:${p.range.start.line}:${p.range.start.character}`));
  }
  if (places.length === 0) return `${at.note}No references to \`${at.name}\` found (VS Code).`;
  const files = new Set(places.map((p) => p.uri)).size;
  const shown = places.slice(0, input.maxResults);
  const lines = await renderPlaces(shown, { sources: vsCodeSources(ctx), verbosity: input.verbosity });
  const more = places.length > shown.length ? [`… ${places.length - shown.length} more; raise maxResults (up to 5000) to see them.`] : [];
  const count = `${places.length} reference${places.length === 1 ? "" : "s"} to \`${at.name}\` in ${files} file${files === 1 ? "" : "s"}`;
  return [`${at.note}${count} (VS Code):`, ...lines, ...more].join("\n");
}
