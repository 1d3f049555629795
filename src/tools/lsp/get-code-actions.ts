// getCodeActions: the quick fixes and refactorings a language server offers for a line range
// (with the diagnostics there), listed by title for previewCodeAction/applyCodeAction.
import * as v from "valibot";
import type { CodeAction, Diagnostic } from "vscode-languageserver-protocol";
import { defineTool } from "../platform/define-tool.ts";
import { codeActionsAt, isCommand, rangeFields } from "./code-actions-at.ts";
import { EDIT_PROTOCOL_VERSION } from "../../extension/protocol-edit.ts";
import { codeActionsViaVsCode } from "./vscode/code-actions.ts";
import { diagnosticLine } from "../../services/diagnostics/diagnostic-lines.ts";

export default defineTool({
  name: "getCodeActions",
  title: "Code actions",
  description:
    "Lists the quick fixes and refactorings the language server offers for a line range (fix error, add import, extract function), by title, with the diagnostics there.",
  searchHint: "code actions quick fix fix error suggestions refactor add missing import lightbulb",
  input: v.strictObject(rangeFields),
  annotations: { readOnlyHint: true },
  slim: true,
  viaExtension: codeActionsViaVsCode,
  extensionProtocol: EDIT_PROTOCOL_VERSION,
  async handler(input, ctx) {
    const { doc, diagnostics, actions, lines: span } = await codeActionsAt(input, ctx);
    const head =
      diagnostics.length > 0
        ? `Diagnostics in lines ${span}:\n${diagnostics.map((d: Diagnostic) => `  ${diagnosticLine(doc.relative, d)}`).join("\n")}\n`
        : "";
    if (actions.length === 0) return `${head}No code actions for ${doc.relative} lines ${span} (${doc.server.serverName}).`;
    const lines = actions.map((a, i) => {
      if (isCommand(a)) return `${i + 1}. ${a.title} (command)`;
      const action = a as CodeAction;
      const flags = [action.isPreferred ? "preferred" : "", action.disabled ? `disabled: ${action.disabled.reason}` : ""].filter(
        (f) => f !== "",
      );
      return `${i + 1}. [${action.kind ?? "action"}] ${action.title}${flags.length > 0 ? ` (${flags.join(", ")})` : ""}`;
    });
    return `${head}${actions.length} code action${actions.length === 1 ? "" : "s"} for ${doc.relative} lines ${span}:\n${lines.join("\n")}`;
  },
});
