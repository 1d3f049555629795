// getCodeLens: the actionable annotations an editor shows above lines (reference counts, "run
// test", "implementations"), resolved so each says its title and the command behind it.
import * as v from "valibot";
import type { CodeLens } from "vscode-languageserver-protocol";
import { openDocument } from "../../services/language/open-document.ts";
import { defineTool } from "../platform/define-tool.ts";
import { fileField } from "./file-fields.ts";
import { resolveEach, resolvesItems } from "./resolved.ts";

const METHOD = "textDocument/codeLens";

export default defineTool({
  name: "getCodeLens",
  title: "Code lens",
  description:
    "Lists the code lenses of a file (reference counts, run/debug test, implementations) with their line and command, via the language server.",
  searchHint: "code lens annotations above lines reference counts run test debug test implementations",
  input: v.strictObject(fileField),
  annotations: { readOnlyHint: true },
  slim: true,
  async handler(input, ctx) {
    const doc = await openDocument(input.file, ctx, { method: METHOD });
    const lenses = (await doc.request<CodeLens[] | null>(METHOD, { textDocument: { uri: doc.uri } })) ?? [];
    if (lenses.length === 0) return `${doc.relative}: no code lenses (${doc.server.serverName}).`;
    const resolved = resolvesItems(doc.server.capabilities.codeLensProvider)
      ? await resolveEach(doc, lenses, { method: "codeLens/resolve", needed: (l) => l.command === undefined })
      : lenses;
    const sorted = [...resolved].sort((a, b) => a.range.start.line - b.range.start.line);
    const lines = sorted.map((lens) => {
      const where = `${lens.range.start.line + 1}:${lens.range.start.character + 1}`;
      const source = (doc.lines[lens.range.start.line] ?? "").trim().slice(0, 60);
      const what = lens.command === undefined ? "(unresolved)" : `${lens.command.title} [${lens.command.command}]`;
      return `${where} ${what}  ${source}`;
    });
    return `${lenses.length} code lens${lenses.length === 1 ? "" : "es"} in ${doc.relative} (${doc.server.serverName}):\n${lines.join("\n")}`;
  },
});
