// What the in-process Node adapter tells a DAP client it can do (its initialize answer).
import type { DebugProtocol } from "@vscode/debugprotocol";

export function capabilities(): DebugProtocol.Capabilities {
  return {
    supportsConfigurationDoneRequest: true,
    supportsConditionalBreakpoints: true,
    supportsHitConditionalBreakpoints: true,
    supportsLogPoints: true,
    supportsFunctionBreakpoints: true,
    supportsExceptionInfoRequest: true,
    supportsTerminateRequest: true,
    exceptionBreakpointFilters: [
      { filter: "uncaught", label: "Uncaught exceptions", default: true },
      { filter: "all", label: "All exceptions", default: false },
    ],
  };
}
