// getTypeHierarchy through VS Code (vscode.prepareTypeHierarchy, provideSupertypes/Subtypes): the
// hierarchy its editor's "Show Type Hierarchy" shows, printed as the headless native answer is.
import type { ToolContext } from "../../../capabilities/context.ts";
import { ExtensionUnavailable } from "../../../extension/extension-unavailable.ts";
import type { WireRange } from "../../../extension/protocol.ts";
import type { PositionInput } from "../../../lsp/positions.ts";
import { renderPlaces } from "../locations.ts";
import { placeInVsCode, vsCodeSources } from "./places.ts";

interface TypeHierarchyInput extends PositionInput {
  file: string;
  direction: "supertypes" | "subtypes" | "both";
}

export async function typeHierarchyViaVsCode(input: TypeHierarchyInput, ctx: ToolContext): Promise<string> {
  const at = await placeInVsCode(input, ctx);
  const directions = input.direction === "both" ? (["supertypes", "subtypes"] as const) : ([input.direction] as const);
  const answer = await ctx.extension.request(
    "extension/typeHierarchy",
    { uri: at.uri, position: at.position, directions: [...directions] },
    { signal: ctx.signal },
  );
  // VS Code's TypeScript has no type hierarchy at all: the route then answers headless (derived).
  if (answer.root === undefined)
    throw new ExtensionUnavailable("no_provider", `VS Code has no type hierarchy for \`${at.name}\` at ${at.where}`);
  const sources = vsCodeSources(ctx);
  const label = async (t: { name: string; kind: string; uri: string; range: WireRange }) =>
    `${t.name} ${t.kind}  ${(await renderPlaces([{ uri: t.uri, range: t.range }], { sources, verbosity: "minimal" }))[0] ?? ""}`;
  const out = [`${await label(answer.root)}  (VS Code)`];
  for (const direction of directions) {
    const found = answer[direction];
    out.push(
      `  ${direction}:`,
      ...(found.length === 0 ? ["    (none)"] : await Promise.all(found.map(async (t) => `    ${await label(t)}`))),
    );
  }
  return `${at.note}${out.join("\n")}`;
}
