// Which backend answers a call, decided here and nowhere else: a tool states a headless handler, a
// VS Code one (viaExtension), or both, and the route picks per call. With the extension connected
// and answering, its handler runs (VS Code's language features are what the user sees); when it is
// not, or it goes away or stops answering during the call, a tool with a headless path runs that,
// and one without fails at once saying how to connect. The result names the backend that answered.
import { ExtensionUnavailable } from "../../extension/extension-unavailable.ts";
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
  const { headless, extension } = tool.handlers;
  if (extension === undefined) {
    // The registry refuses a tool with neither handler, so this one has its headless handler.
    const only = headless ?? (() => Promise.reject(new Error(`${tool.name} has no handler`)));
    return { run: only, backend: () => undefined };
  }
  let answered: Backend | undefined;
  return {
    backend: () => answered,
    async run(input, ctx) {
      if (ctx.extension.connected) {
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
