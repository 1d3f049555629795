// generateAPIDocumentation: markdown reference of what a file or folder exports, one section per
// exported symbol (and the public members of its classes), each with the signature its language
// server gives and its doc comment. Symbols without a doc comment are counted, so gaps show.
import * as v from "valibot";
import { errorMessage } from "../../errors.ts";
import { topLevelSymbols, type TopSymbol } from "../../services/analysis/exported-symbols.ts";
import { sourceFilesUnder } from "../../services/analysis/source-files.ts";
import { symbolDocs } from "../../services/analysis/symbol-docs.ts";
import { isTestFile } from "../../services/conventions/test-files.ts";
import { openDocument } from "../../services/language/open-document.ts";
import type { LspDocument } from "../../lsp/lsp-service.ts";
import { defineTool } from "../platform/define-tool.ts";

const KIND_NAMES: Readonly<Record<number, string>> = {
  5: "class",
  6: "method",
  7: "property",
  8: "field",
  9: "constructor",
  10: "enum",
  11: "interface",
  12: "function",
  13: "variable",
  14: "constant",
  23: "struct",
  26: "type parameter",
};
const MAX_MEMBERS = 20;

export default defineTool({
  name: "generateAPIDocumentation",
  title: "Generate API documentation",
  description:
    "Generates markdown API documentation for a file or folder: every exported function, class, type and constant with its signature and doc comment, via the language server.",
  searchHint: "generate API documentation docs markdown reference exported functions signatures doc comments jsdoc docstrings",
  input: v.strictObject({
    path: v.pipe(v.string(), v.minLength(1), v.description("A source file or a folder.")),
    includeTests: v.optional(v.pipe(v.boolean(), v.description("Document test files too (default false).")), false),
    maxFiles: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(200), v.description("Files documented (default 40).")),
      40,
    ),
  }),
  annotations: { readOnlyHint: true },
  timeoutMs: 120_000,
  largeResult: true,
  async handler(input, ctx) {
    const listed = await sourceFilesUnder(ctx, input.path, { max: input.maxFiles });
    const files = listed.files.filter((f) => input.includeTests || !isTestFile(f) || listed.files.length === 1);
    const sections: string[] = [];
    const notes: string[] = [];
    let documented = 0;
    let undocumented = 0;
    for (const file of files) {
      if (ctx.signal.aborted) break;
      ctx.progress(sections.length, { total: files.length, message: file });
      const doc = await openDocument(file, ctx, { method: "textDocument/documentSymbol" }).catch((err: unknown) => {
        notes.push(`${file}: not documented (${errorMessage(err)})`);
        return undefined;
      });
      if (doc === undefined) continue;
      const exported = (await topLevelSymbols(doc)).filter((s) => s.exported);
      if (exported.length === 0) continue;
      const parts = [`## ${file}`];
      for (const symbol of exported) {
        const entry = await entryOf(doc, symbol, 3);
        if (entry.documented) documented += 1;
        else undocumented += 1;
        parts.push(entry.text);
        for (const member of symbol.members.slice(0, MAX_MEMBERS))
          parts.push((await entryOf(doc, { ...member, exported: true, members: [], range: { start: member.at, end: member.at } }, 4)).text);
        if (symbol.members.length > MAX_MEMBERS) parts.push(`(${symbol.members.length - MAX_MEMBERS} more members)`);
      }
      sections.push(parts.join("\n\n"));
    }
    const total = documented + undocumented;
    const head = `# API of ${ctx.fs.relative(await ctx.fs.resolve(input.path)) || "."}\n\n${total} exported symbol(s) in ${sections.length} file(s); ${undocumented} without a doc comment.`;
    const tail = [...notes];
    if (listed.left > 0) tail.push(`${listed.left} more file(s) not documented; raise maxFiles or pass a subfolder.`);
    if (sections.length === 0)
      return `${head}\n\nNothing exported was found${files.length === 0 ? " (no source file a language server handles)" : ""}.${tail.length > 0 ? `\n${tail.join("\n")}` : ""}`;
    return [head, ...sections, ...tail].join("\n\n");
  },
});

async function entryOf(doc: LspDocument, symbol: TopSymbol, level: number): Promise<{ text: string; documented: boolean }> {
  const { signature, docs } = await symbolDocs(doc, symbol.at);
  const kind = KIND_NAMES[symbol.kind] ?? "symbol";
  const text = [
    `${"#".repeat(level)} \`${symbol.name}\` (${kind}, line ${symbol.at.line + 1})`,
    `\`\`\`${fence(doc)}\n${signature}\n\`\`\``,
    ...(docs === "" ? [] : [docs]),
  ].join("\n\n");
  return { text, documented: docs !== "" };
}

function fence(doc: LspDocument): string {
  return doc.languageId.replace(/react$/, "");
}
