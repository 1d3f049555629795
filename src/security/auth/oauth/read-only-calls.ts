// What a token with only mcp:read may not do: call a tool that is not read-only. Such a call is
// refused with 403 insufficient_scope before it reaches a session, so the client can ask the owner
// for mcp:write (MCP authorization, "Scope Challenge Handling"); the read-only sessions behind it
// do not list or know those tools either. Only requests of read-only tokens pay for this look.
import { MAX_MESSAGE_BYTES } from "../../../wire.ts";
import { readText } from "./form.ts";

/** The name of the tool a POST calls when that tool needs write access, else undefined. */
export async function writeToolCalled(request: Request, requiresWrite: (tool: string) => boolean): Promise<string | undefined> {
  if (request.method !== "POST" || request.body === null) return undefined;
  let message: unknown;
  try {
    message = JSON.parse(await readText(request.clone(), MAX_MESSAGE_BYTES));
  } catch {
    // Too large or not JSON: the transport refuses it with the right error.
    return undefined;
  }
  if (typeof message !== "object" || message === null || !("method" in message) || message.method !== "tools/call") return undefined;
  const params = "params" in message ? message.params : undefined;
  const name = typeof params === "object" && params !== null && "name" in params ? params.name : undefined;
  return typeof name === "string" && requiresWrite(name) ? name : undefined;
}
