// The errors ExtensionClient answers with when a request cannot be answered as asked.
import * as v from "valibot";
import { ToolError } from "../errors.ts";

export function cancelled(method: string): ToolError {
  return new ToolError("cancelled", `${method} was cancelled`, { suggestion: "Call again if the answer is still needed." });
}

/** The connected extension predates the method: said plainly, with the upgrade, never sent. */
export function tooOld(method: string, versions: { have: string; need: string }): ToolError {
  return new ToolError(
    "not_supported",
    `The connected VS Code extension speaks protocol ${versions.have}; ${method} needs ${versions.need} or later`,
    { suggestion: "Update the extension: run claude-ide-bridge install-extension code (or code-server), then reload the VS Code window." },
  );
}

export function unexpectedShape(method: string, issue: v.BaseIssue<unknown>): ToolError {
  return new ToolError(
    "internal_error",
    `VS Code answered ${method} in an unexpected shape (${v.getDotPath(issue) ?? "value"}: ${issue.message})`,
    {
      suggestion:
        "The extension and the bridge may be of different versions: run claude-ide-bridge install-extension, then reload VS Code.",
    },
  );
}
