// getImportedSignatures: the signature of every name a file imports, from the language server's
// hover on the name in the import statement, so a model sees the API a file works against without
// opening each module. Languages that import modules rather than names (Go, C) list the modules.
import * as v from "valibot";
import type { Hover } from "vscode-languageserver-protocol";
import { importStatements, importsKnown } from "../../services/lsp-imports/import-statements.ts";
import { openDocument } from "../../services/language/open-document.ts";
import { defineTool } from "../platform/define-tool.ts";
import { fileField } from "./file-fields.ts";
import { markupText, signatureOf } from "../../services/lsp-markup/markup.ts";

const MAX_NAMES = 100;
const MAX_SIGNATURE_CHARS = 400;

export default defineTool({
  name: "getImportedSignatures",
  title: "Signatures of imported names",
  description:
    "Lists the signature of every name a file imports (functions, classes, types, constants), from the language server's hover, grouped by module.",
  searchHint: "imported signatures api of imports types of imported functions what does this file use from other modules",
  input: v.strictObject(fileField),
  annotations: { readOnlyHint: true },
  slim: true,
  timeoutMs: 90_000,
  async handler(input, ctx) {
    const doc = await openDocument(input.file, ctx, { method: "textDocument/hover" });
    if (!importsKnown(doc.languageId))
      return `${doc.relative}: imports of ${doc.languageId} files are not recognised; use getDocumentLinks or getDocumentSymbols.`;
    const statements = importStatements(doc.lines, doc.languageId);
    if (statements.length === 0) return `${doc.relative} imports nothing.`;
    const out: string[] = [];
    let asked = 0;
    let unknown = 0;
    for (const statement of statements) {
      out.push(`from "${statement.specifier}" (line ${statement.line + 1}):`);
      if (statement.names.length === 0) {
        out.push("  (the whole module)");
        continue;
      }
      const names = statement.names.slice(0, Math.max(0, MAX_NAMES - asked));
      asked += names.length;
      const signatures = await Promise.all(
        names.map(async (name) => {
          const hover = await doc
            .request<Hover | null>("textDocument/hover", {
              textDocument: { uri: doc.uri },
              position: { line: name.line, character: name.character },
            })
            .catch(() => null);
          return signatureOf(markupText(hover?.contents));
        }),
      );
      names.forEach((name, i) => {
        const signature = signatures[i] ?? "";
        if (signature === "") unknown += 1;
        const clipped = signature.length > MAX_SIGNATURE_CHARS ? `${signature.slice(0, MAX_SIGNATURE_CHARS)}…` : signature;
        out.push(`  ${name.local}: ${clipped === "" ? "(no hover information)" : clipped.replace(/\n\s*/g, " ")}`);
      });
    }
    const cut = statements.reduce((n, s) => n + s.names.length, 0) - asked;
    return [
      `${asked} imported name${asked === 1 ? "" : "s"} in ${doc.relative} (${doc.server.serverName}${unknown > 0 ? `; ${unknown} without hover information` : ""}):`,
      ...out,
      ...(cut > 0 ? [`… ${cut} more names not asked (first ${MAX_NAMES} only).`] : []),
    ].join("\n");
  },
});
