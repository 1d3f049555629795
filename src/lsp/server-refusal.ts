// A language server that answered a request with an error of its own: not a crash, not a
// cancellation, but a refusal with its reason ("You cannot rename this element"). The LSP layer
// raises it as a ToolError that carries the reason, so a tool can phrase it for its own request
// without looking into the error's cause.
import { ToolError } from "../errors.ts";

export class ServerRefusal extends ToolError {
  readonly method: string;
  /** The server's own words, without the method's name. */
  readonly reason: string;

  constructor(
    readonly serverName: string,
    refusal: { method: string; reason: string },
  ) {
    const { method, reason } = refusal;
    super("language_server_error", `${serverName} could not answer ${method}: ${reason.split("\n")[0] ?? ""}`, {
      suggestion: "Check the file and position; if the project does not load, check its configuration (tsconfig.json, pyproject.toml...).",
    });
    this.method = method;
    this.reason = reason;
  }
}
