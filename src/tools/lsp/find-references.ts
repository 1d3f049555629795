// findReferences: every use of a symbol across the project. The answer is verified against a
// whole-word text search of the name (src/services/language/verified-references.ts): files that
// mention it outside the server's first answer are opened in the server and the question asked
// again, so the references of a project the server had not loaded yet are found; what could not be
// checked makes the answer partial, named, and text mentions outside the answer are listed.
import * as v from "valibot";
import { defineTool } from "../platform/define-tool.ts";
import { verifiedReferences } from "../../services/language/verified-references.ts";
import { openAt } from "./at-position.ts";
import { coverageLines, partialLine, status } from "./coverage-lines.ts";
import { placesOf, renderPlaces, sortPlaces, SourceLines } from "./locations.ts";
import { maxResultsField, positionFields, verbosityField } from "./position-input.ts";
import { referencesViaVsCode } from "./vscode/references.ts";

export default defineTool({
  name: "findReferences",
  title: "Find references",
  description:
    "Finds every use of a symbol across the project (find usages), from its file, line and name; checked against a text search of the name, and says when partial.",
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
  viaExtension: referencesViaVsCode,
  async handler(input, ctx) {
    const at = await openAt(input, ctx, { method: "textDocument/references" });
    const found = await verifiedReferences(ctx, at.doc, { name: at.name, params: at.params, includeDeclaration: input.includeDeclaration });
    const head = `${at.note}${partialLine(found.coverage)}`;
    const tail = coverageLines(found.coverage, at.name);
    const places = sortPlaces(placesOf(found.locations));
    if (places.length === 0)
      return [`${head}No references to \`${at.name}\` found (${at.doc.server.serverName}, ${status(found.coverage)}).`, ...tail].join("\n");
    const files = new Set(places.map((p) => p.uri)).size;
    const shown = places.slice(0, input.maxResults);
    const lines = await renderPlaces(shown, { sources: new SourceLines(ctx, found.searchedName), verbosity: input.verbosity });
    const more = places.length > shown.length ? [`… ${places.length - shown.length} more; raise maxResults (up to 5000) to see them.`] : [];
    const count = `${places.length} reference${places.length === 1 ? "" : "s"} to \`${at.name}\` in ${files} file${files === 1 ? "" : "s"}`;
    return [`${head}${count} (${status(found.coverage)}):`, ...lines, ...more, ...tail].join("\n");
  },
});
