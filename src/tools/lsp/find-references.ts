// findReferences: every use of a symbol across the project. The answer waits for the server's
// readiness (src/lsp/whole-project.ts), so a cold server's first handful of references is never
// passed off as all of them (3 of 4,001 on a cold 2,000-file project).
import * as v from "valibot";
import type { Location } from "vscode-languageserver-protocol";
import { defineTool } from "../platform/define-tool.ts";
import { openAt, partialNote } from "./at-position.ts";
import { placesOf, renderPlaces, sortPlaces, SourceLines } from "./locations.ts";
import { maxResultsField, positionFields, verbosityField } from "./position-input.ts";

export default defineTool({
  name: "findReferences",
  title: "Find references",
  description:
    "Finds every use of a symbol across the project (find usages), from its file, line and name; waits for the language server to load the project and says when partial.",
  searchHint: "find references usages callers who uses this where is it used all occurrences",
  input: v.strictObject({
    ...positionFields,
    includeDeclaration: v.optional(v.pipe(v.boolean(), v.description("Also list the declaration.")), true),
    ...verbosityField,
    ...maxResultsField(200, 5000),
  }),
  annotations: { readOnlyHint: true },
  slim: true,
  alwaysLoad: true,
  largeResult: true,
  async handler(input, ctx) {
    const at = await openAt(input, ctx, { method: "textDocument/references" });
    const answer = await at.doc.wholeProject<Location[] | null>("textDocument/references", {
      ...at.params,
      context: { includeDeclaration: input.includeDeclaration },
    });
    const places = sortPlaces(placesOf(answer.value));
    if (places.length === 0) return `${partialNote(answer)}No references to \`${at.name}\` found (${at.doc.server.serverName}).`;
    const files = new Set(places.map((p) => p.uri)).size;
    const shown = places.slice(0, input.maxResults);
    const lines = await renderPlaces(shown, { sources: new SourceLines(ctx), verbosity: input.verbosity });
    const more = places.length > shown.length ? `\n… ${places.length - shown.length} more; raise maxResults (up to 5000) to see them.` : "";
    const status = answer.complete ? "complete" : "partial";
    return `${partialNote(answer)}${places.length} reference${places.length === 1 ? "" : "s"} to \`${at.name}\` in ${files} file${files === 1 ? "" : "s"} (${status}):\n${lines.join("\n")}${more}`;
  },
});
