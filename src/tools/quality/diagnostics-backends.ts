// getDiagnostics asks these in order; the first that covers the request answers: the language
// servers ([lsp], src/tools/lsp/lsp-diagnostics-backend.ts) for what one handles, then the checker CLIs.
import { cliDiagnosticsBackend } from "../../diagnostics/cli-backend.ts";
import type { DiagnosticsBackend } from "../../diagnostics/diagnostics-backend.ts";
import { lspDiagnosticsBackend } from "../lsp/lsp-diagnostics-backend.ts";

export const DIAGNOSTICS_BACKENDS: readonly DiagnosticsBackend[] = [lspDiagnosticsBackend, cliDiagnosticsBackend];
