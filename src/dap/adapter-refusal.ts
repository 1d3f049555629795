// A refusal of the bridge's own debugging code (the in-process Node adapter, the attach rules): what
// was refused, why, and what to do instead, so the tools answer it with the right code rather than as
// an adapter failure. Over DAP it travels in a failed response's body.error (a DAP Message), whose
// variables carry the code and the suggestion.
import type { DebugProtocol } from "@vscode/debugprotocol";

export type RefusalCode = "command_refused" | "invalid_arguments" | "not_supported";

const CODES: readonly string[] = ["command_refused", "invalid_arguments", "not_supported"] satisfies RefusalCode[];
/** The Message id DAP asks for; the bridge's refusals all share it. */
const REFUSAL_MESSAGE_ID = 4001;

export class AdapterRefusal extends Error {
  readonly suggestion: string;

  constructor(
    readonly code: RefusalCode,
    message: string,
    opts: { suggestion: string },
  ) {
    super(message);
    this.name = this.constructor.name;
    this.suggestion = opts.suggestion;
  }
}

/** The failed response's body that carries a refusal. */
export function refusalBody(refusal: AdapterRefusal): { error: DebugProtocol.Message } {
  return {
    error: {
      id: REFUSAL_MESSAGE_ID,
      format: "{message}",
      variables: { message: refusal.message, code: refusal.code, suggestion: refusal.suggestion },
    },
  };
}

/** The refusal a failed response carries, if it is one. */
export function refusalOf(response: DebugProtocol.Response): AdapterRefusal | undefined {
  const error = (response.body as { error?: DebugProtocol.Message } | undefined)?.error;
  const vars = error?.variables;
  if (error?.id !== REFUSAL_MESSAGE_ID || vars === undefined || !CODES.includes(vars.code ?? "")) return undefined;
  return new AdapterRefusal(vars.code as RefusalCode, vars.message ?? "refused", { suggestion: vars.suggestion ?? "" });
}
