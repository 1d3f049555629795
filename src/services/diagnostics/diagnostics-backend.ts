// Where getDiagnostics' answers come from. Every backend that covers the request answers, in order,
// and their reports are merged: the language servers first, then the checker CLIs
// (src/services/diagnostics/cli-backend.ts). Once a backend that checks types has answered in full, the CLIs
// leave out their type checkers (tsc, pyright, cargo check: the same errors again, slower) and run
// only the linters (eslint, biome, ruff, go vet), whose findings no language server reports.
import type { ToolContext } from "../../capabilities/context.ts";
import type { Diagnostic } from "./diagnostic.ts";

export interface DiagnosticsRequest {
  /** One file, root-relative (through the jail); undefined for the whole workspace. */
  file?: string;
  /** A backend that checks types answered in full: type-checking CLIs are left out, linters still run. */
  typesChecked?: boolean;
}

export interface DiagnosticsReport {
  diagnostics: Diagnostic[];
  /** The checkers or servers that answered. */
  sources: string[];
  /** The ones that could not, and why (not installed, crashed). */
  skipped: { source: string; reason: string }[];
  /** The call's budget ran out: what was not checked, and what to do. */
  partial?: string;
  /** Whether the type checkers behind it covered every file asked about (default: nothing skipped, or the budget spent). */
  typesChecked?: boolean;
}

export interface DiagnosticsBackend {
  readonly name: string;
  /** Its reports include the type errors a compiler CLI would give (a language server's do). */
  readonly checksTypes?: boolean;
  covers(ctx: ToolContext, req: DiagnosticsRequest): Promise<boolean>;
  collect(ctx: ToolContext, req: DiagnosticsRequest): Promise<DiagnosticsReport>;
}
