// getDiagnostics asks these in order and merges what those that cover the request report: the
// language servers ([lsp], src/tools/lsp/lsp-diagnostics-backend.ts) for what one handles, then the
// checker CLIs (only their linters once a server checked the types; src/diagnostics/diagnostics-backend.ts).
import { cliDiagnosticsBackend } from "../../diagnostics/cli-backend.ts";
import type { DiagnosticsBackend } from "../../diagnostics/diagnostics-backend.ts";
import { lspDiagnosticsBackend } from "../lsp/lsp-diagnostics-backend.ts";

export const DIAGNOSTICS_BACKENDS: readonly DiagnosticsBackend[] = [lspDiagnosticsBackend, cliDiagnosticsBackend];
