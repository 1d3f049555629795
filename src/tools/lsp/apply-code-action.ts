// applyCodeAction: applies a quick fix or refactoring by its title, to every file it touches at once
// or to none, with the errors it introduces or fixes.
import * as v from "valibot";
import { defineTool } from "../platform/define-tool.ts";
import { codeActionInput, runCodeAction } from "./code-action-edit.ts";
import { editFields } from "./edit-fields.ts";
import { codeActionViaVsCode } from "./vscode/code-actions.ts";
import { EDIT_PROTOCOL_VERSION } from "../../extension/protocol-edit.ts";

export default defineTool({
  name: "applyCodeAction",
  title: "Apply a code action",
  description:
    "Applies a quick fix or refactoring by its title from getCodeActions (add import, fix error, extract), all files or none, with the diff and the errors introduced or fixed.",
  searchHint: "apply code action quick fix fix error add missing import refactor extract function",
  input: v.strictObject({ ...codeActionInput, ...editFields }),
  annotations: { readOnlyHint: false, destructiveHint: false },
  timeoutMs: 120_000,
  slim: true,
  viaExtension: (input, ctx) => codeActionViaVsCode(input, ctx, { dryRun: input.dryRun, expectDigest: input.preview }),
  // Predicting the errors before writing (onlyIfNoNewErrors) takes the bridge's language server.
  viaExtensionWhen: (input) => !input.onlyIfNoNewErrors,
  extensionProtocol: EDIT_PROTOCOL_VERSION,
  handler: (input, ctx) =>
    runCodeAction(input, ctx, { dryRun: input.dryRun, onlyIfNoNewErrors: input.onlyIfNoNewErrors, expectDigest: input.preview }),
});
