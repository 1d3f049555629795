// Why the extension could not answer: not connected, not answering (breaker open, timeout), too
// busy, no installed extension of VS Code provides the feature asked (VS Code's TypeScript has
// no type hierarchy, a language may have no formatter), or what the call is about is not in VS Code
// (a debugger call when VS Code has no debug session: the headless debugger's sessions answer). A ToolError, so a tool that has no other way says so to the model; the tool router
// (src/tools/platform/route-call.ts) catches it to answer headless instead when the tool can.
import { ToolError } from "../errors.ts";

export type UnavailableReason = "disconnected" | "circuit_open" | "timeout" | "busy" | "no_provider" | "not_in_vscode";

export const CONNECT_SUGGESTION =
  "Open this workspace in VS Code with the claude-ide-bridge extension (claude-ide-bridge install-extension code); it finds the bridge and connects on its own. getToolCapabilities says whether it is connected.";

export class ExtensionUnavailable extends ToolError {
  constructor(
    readonly reason: UnavailableReason,
    message: string,
  ) {
    super("extension_unavailable", message, {
      suggestion:
        reason === "disconnected"
          ? CONNECT_SUGGESTION
          : reason === "no_provider"
            ? "Install a VS Code extension that provides it for this language, or disconnect the extension to have the bridge's language server answer."
            : reason === "not_in_vscode"
              ? "Start it in VS Code first (e.g. startDebugging for a debug session)."
              : "VS Code is not answering the bridge right now (busy or hung); retry in a few seconds, or check the VS Code window.",
    });
  }
}
