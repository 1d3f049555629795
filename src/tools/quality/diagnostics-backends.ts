// getDiagnostics asks these in order; the first that covers the request answers. The [lsp] issue
// adds its language-server backend in front of the checker CLIs.
import { cliDiagnosticsBackend } from "../../diagnostics/cli-backend.ts";
import type { DiagnosticsBackend } from "../../diagnostics/diagnostics-backend.ts";

export const DIAGNOSTICS_BACKENDS: readonly DiagnosticsBackend[] = [cliDiagnosticsBackend];
