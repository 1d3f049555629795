// Which backend answers a call, decided here and nowhere else: a tool states a headless handler, a
// VS Code one (viaExtension), or both, and the route picks per call. With the extension connected
// and answering, its handler runs (VS Code's language features are what the user sees); when it is
// not, or it goes away or stops answering during the call, a tool with a headless path runs that,
// and one without fails at once saying how to connect. The result names the backend that answered.
import { tooOld } from "../../extension/extension-errors.ts";
import { ExtensionUnavailable } from "../../extension/extension-unavailable.ts";
import { protocolAtLeast } from "../../extension/protocol.ts";
import type { ExtensionLink, ToolContext } from "../../capabilities/context.ts";
import type { Tool } from "./define-tool.ts";

export type Backend = "extension" | "headless";

/** The `_meta` key of a result that says which backend answered it. */
export const BACKEND_META_KEY = "claude-ide-bridge/backend";

export interface Route {
  run(input: unknown, ctx: ToolContext): Promise<unknown>;
  /** Who answered (or was last asked); undefined for tools that have one backend only. */
  backend(): Backend | undefined;
}

export function routeCall(tool: Tool): Route {
  const { headless, extension, extensionWhen } = tool.handlers;
  if (extension === undefined) {
    // The registry refuses a tool with neither handler, so this one has its headless handler.
    const only = headless ?? (() => Promise.reject(new Error(`${tool.name} has no handler`)));
    return { run: only, backend: () => undefined };
  }
  let answered: Backend | undefined;
  return {
    backend: () => answered,
    async run(input, ctx) {
      const older = olderExtension(tool, ctx.extension);
      if (ctx.extension.connected && older !== undefined && (extensionWhen === undefined || extensionWhen(input))) {
        // The connected extension predates what this tool asks of VS Code: headless, said so.
        if (headless === undefined) throw tooOld(tool.name, older);
        answered = "headless";
        return withNote(await headless(input, ctx), olderNote(older));
      }
      if (ctx.extension.connected && (extensionWhen === undefined || extensionWhen(input))) {
        answered = "extension";
        try {
          return await extension(input, ctx);
        } catch (err) {
          if (!(err instanceof ExtensionUnavailable) || headless === undefined) throw err;
          ctx.log("info", `VS Code could not answer (${err.message}); answering headless`);
        }
      } else if (headless === undefined) {
        throw notConnected(tool.name, ctx.extension);
      }
      answered = "headless";
      return headless?.(input, ctx);
    },
  };
}

/** The versions, when the connected extension speaks an older protocol than the tool's VS Code handler needs. */
export function olderExtension(
  tool: { requires: { extensionProtocol?: string } },
  link: Pick<ExtensionLink, "status">,
): { have: string; need: string } | undefined {
  const need = tool.requires.extensionProtocol;
  const have = link.status().info?.protocolVersion;
  return need === undefined || have === undefined || protocolAtLeast(have, need) ? undefined : { have, need };
}

function olderNote(v: { have: string; need: string }): string {
  return `NOTE: answered by the bridge's own language tools: the connected VS Code extension speaks protocol ${v.have}, and asking VS Code this needs ${v.need} (run claude-ide-bridge install-extension, then reload VS Code).`;
}

/** A text answer gets the note as its first line; a structured one is data and stays as it is. */
function withNote(result: unknown, note: string): unknown {
  if (typeof result === "string") return `${note}\n${result}`;
  if (typeof result === "object" && result !== null && "content" in result && Array.isArray(result.content))
    return { ...result, content: [{ type: "text", text: note }, ...result.content] };
  return result;
}

function notConnected(name: string, link: Pick<ExtensionLink, "status">): ExtensionUnavailable {
  const status = link.status();
  if (status.state === "not_answering") {
    const seconds = Math.ceil((status.retryInMs ?? 0) / 1000);
    return new ExtensionUnavailable(
      "circuit_open",
      `${name} needs VS Code, which stopped answering the bridge; it is asked again in ${seconds} s`,
    );
  }
  return new ExtensionUnavailable("disconnected", `${name} needs the VS Code extension, which is not connected`);
}
