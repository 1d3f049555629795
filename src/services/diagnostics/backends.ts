// getDiagnostics asks these in order and merges what those that cover the request report: the
// language servers (src/services/diagnostics/lsp-backend.ts) for what one handles, then the
// checker CLIs (only their linters once a server checked the types; src/services/diagnostics/diagnostics-backend.ts).
import { cliDiagnosticsBackend } from "./cli-backend.ts";
import type { DiagnosticsBackend } from "./diagnostics-backend.ts";
import { lspDiagnosticsBackend } from "./lsp-backend.ts";

export const DIAGNOSTICS_BACKENDS: readonly DiagnosticsBackend[] = [lspDiagnosticsBackend, cliDiagnosticsBackend];
