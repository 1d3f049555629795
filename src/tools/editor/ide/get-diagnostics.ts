// Claude Code's IDE link: getDiagnostics {uri?} in the IDE's shape (protocol.md A4), which the model
// sees as mcp__ide__getDiagnostics. Answered from what VS Code pushed (every installed extension's
// problems), at once; never a crawl of the workspace. Without VS Code, one file can be answered by a
// language server that already has it, within a second; otherwise the answer says to use the
// bridge's own getDiagnostics, which runs the project's checkers.
import * as v from "valibot";
import type { Diagnostic as LspDiagnostic } from "vscode-languageserver-protocol";
import { ToolError } from "../../../errors.ts";
import type { WireDiagnostic } from "../../../extension/protocol.ts";
import { fromFileUri, toFileUri } from "../../../lib/paths/file-uri.ts";
import { defineTool } from "../../platform/define-tool.ts";
import { ideJson } from "../editor-files.ts";

const HEADLESS_BUDGET_MS = 1_000;
const SEVERITY = { error: "Error", warning: "Warning", info: "Info", hint: "Hint" } as const;
const LSP_SEVERITY = ["Error", "Error", "Warning", "Info", "Hint"] as const;

export default defineTool({
  name: "getDiagnostics",
  description: "Returns the editor's diagnostics (errors, warnings) for one file URI, or for every file when none is given.",
  searchHint: "diagnostics errors warnings problems",
  input: v.strictObject({ uri: v.optional(v.string()) }),
  annotations: { readOnlyHint: true },
  async viaExtension(input, ctx) {
    const wanted = input.uri === undefined ? undefined : (fromFileUri(input.uri) ?? input.uri);
    const files = ctx.extension.state.diagnosticsOf().filter((f) => wanted === undefined || fromFileUri(f.uri) === wanted);
    return ideJson(files.map((f) => ({ uri: f.uri, diagnostics: f.diagnostics.map(ideDiagnostic) })));
  },
  async handler(input, ctx) {
    if (input.uri === undefined) {
      throw new ToolError("extension_unavailable", "No editor is connected, so there are no editor diagnostics to report", {
        suggestion: "Call the claude-ide-bridge server's getDiagnostics tool: it runs the project's checkers and language servers.",
      });
    }
    const path = await ctx.fs.resolve(input.uri);
    const signal = AbortSignal.any([ctx.signal, AbortSignal.timeout(HEADLESS_BUDGET_MS)]);
    const found = await ctx.lsp.diagnosticsFor(ctx.fs.relative(path), { signal, start: false }).catch(() => undefined);
    if (found === undefined) {
      throw new ToolError("extension_unavailable", `No editor is connected and no running language server has ${ctx.fs.relative(path)}`, {
        suggestion: "Call the claude-ide-bridge server's getDiagnostics tool with this file: it starts the language server or checker.",
      });
    }
    return ideJson([{ uri: toFileUri(found.path), diagnostics: found.items.map(lspIdeDiagnostic) }]);
  },
});

function ideDiagnostic(d: WireDiagnostic): Record<string, unknown> {
  const out: Record<string, unknown> = { message: d.message, severity: SEVERITY[d.severity], range: d.range };
  if (d.source !== undefined) out.source = d.source;
  if (d.code !== undefined) out.code = d.code;
  return out;
}

function lspIdeDiagnostic(d: LspDiagnostic): Record<string, unknown> {
  const out: Record<string, unknown> = { message: d.message, severity: LSP_SEVERITY[d.severity ?? 1] ?? "Error", range: d.range };
  if (d.source !== undefined) out.source = d.source;
  if (d.code !== undefined) out.code = d.code;
  return out;
}
