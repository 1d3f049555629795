// previewCodeAction: what a code action would change (the unified diff) and the errors it would
// introduce or fix, without writing anything.
import * as v from "valibot";
import { defineTool } from "../platform/define-tool.ts";
import { codeActionInput, runCodeAction } from "./code-action-edit.ts";
import { codeActionViaVsCode } from "./vscode/code-actions.ts";
import { EDIT_PROTOCOL_VERSION } from "../../extension/protocol-edit.ts";

export default defineTool({
  name: "previewCodeAction",
  title: "Preview a code action",
  description:
    "Shows the diff a quick fix or refactoring would make (by its title from getCodeActions) and the errors it would introduce or fix, without changing any file.",
  searchHint: "preview code action quick fix diff what would change refactor dry run",
  input: v.strictObject(codeActionInput),
  annotations: { readOnlyHint: true },
  timeoutMs: 120_000,
  slim: true,
  viaExtension: (input, ctx) => codeActionViaVsCode(input, ctx, { dryRun: true }),
  extensionProtocol: EDIT_PROTOCOL_VERSION,
  handler: (input, ctx) => runCodeAction(input, ctx, { dryRun: true, onlyIfNoNewErrors: false }),
});
