// explainSymbol: one answer with what a model would otherwise ask four tools for: the symbol's
// signature and docs (hover), where it is defined, who calls it, and how many references it has
// across the project, each fact from the server and each saying when it is partial or unknown.
import * as v from "valibot";
import { verifiedReferences } from "../../services/language/verified-references.ts";
import { defineTool } from "../platform/define-tool.ts";
import { openAt } from "./at-position.ts";
import { placesOf, SourceLines, sortPlaces } from "./locations.ts";
import { signatureOf } from "../../services/lsp-markup/markup.ts";
import { positionFields } from "./position-input.ts";
import { callersOf, definitionLines, hoverText, section } from "./symbol-facts.ts";

const MAX_CALLERS = 10;

export default defineTool({
  name: "explainSymbol",
  title: "Explain a symbol",
  description:
    "Explains a symbol in one answer: signature, docs, definition, callers and reference count across the project (says when partial), via the language server.",
  searchHint: "explain symbol what is this function signature docs definition callers usage count summary",
  input: v.strictObject(positionFields),
  annotations: { readOnlyHint: true },
  slim: true,
  timeoutMs: 120_000,
  async handler(input, ctx) {
    const at = await openAt(input, ctx, { method: "textDocument/hover" });
    const sources = new SourceLines(ctx);
    const [hover, definition, callers] = await Promise.all([
      hoverText(at),
      definitionLines(at, sources),
      callersOf(ctx, at, { max: MAX_CALLERS, sources }),
    ]);
    const refs = at.doc.server.supports("textDocument/references")
      ? await verifiedReferences(ctx, at.doc, { name: at.name, params: at.params, includeDeclaration: false })
      : undefined;
    const where = `${at.doc.relative}:${at.position.line + 1}:${at.position.character + 1}`;
    const out = [`${at.note}\`${at.name}\` at ${where} (${at.doc.server.serverName})`];
    if ("value" in hover && hover.value !== "") {
      const signature = signatureOf(hover.value);
      out.push(`Signature: ${signature}`);
      const docs = hover.value.replace(/```[^\n]*\n[\s\S]*?```/, "").trim();
      if (docs !== "") out.push(`Docs: ${docs.length > 600 ? `${docs.slice(0, 600)}…` : docs}`);
    } else out.push(`Signature: unknown (${"missing" in hover ? hover.missing : "no hover information"})`);
    out.push(...section("Defined at", definition, { render: (lines) => lines }));
    if (refs === undefined) out.push(`References: unknown (${at.doc.server.serverName} has no textDocument/references)`);
    else {
      const places = sortPlaces(placesOf(refs.locations));
      const files = new Set(places.map((p) => p.uri)).size;
      const partial = refs.coverage.complete ? "complete" : `PARTIAL, at least: ${refs.coverage.why ?? "not every file was checked"}`;
      out.push(`References: ${places.length} in ${files} file${files === 1 ? "" : "s"}, declaration not counted (${partial})`);
    }
    out.push(
      ...section("Callers", callers, {
        render: (c) => [
          `${c.total} caller${c.total === 1 ? "" : "s"}${c.complete ? "" : ` (PARTIAL: ${c.why})`}${c.total > c.lines.length ? `, first ${c.lines.length}:` : c.total > 0 ? ":" : ""}`,
          ...c.lines.map((l) => `  ${l}`),
        ],
      }),
    );
    return out.join("\n");
  },
});
