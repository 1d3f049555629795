// Where getDiagnostics' answers come from. Backends are asked in order and the first that covers
// the request answers: today the checker CLIs (src/diagnostics/cli-backend.ts); the [lsp] issue
// puts a language-server backend in front, so the CLIs answer only where no server covers the file.
import type { ToolContext } from "../tools/context.ts";
import type { Diagnostic } from "./diagnostic.ts";

export interface DiagnosticsRequest {
  /** One file, root-relative (through the jail); undefined for the whole workspace. */
  file?: string;
}

export interface DiagnosticsReport {
  diagnostics: Diagnostic[];
  /** The checkers or servers that answered. */
  sources: string[];
  /** The ones that could not, and why (not installed, crashed). */
  skipped: { source: string; reason: string }[];
}

export interface DiagnosticsBackend {
  readonly name: string;
  covers(ctx: ToolContext, req: DiagnosticsRequest): Promise<boolean>;
  collect(ctx: ToolContext, req: DiagnosticsRequest): Promise<DiagnosticsReport>;
}
