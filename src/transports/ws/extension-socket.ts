// The WebSocket the VS Code extension connects to (src/extension/protocol.ts): the path /extension,
// the bridge token in `x-claude-ide-extension` (constant-time compare), loopback Host, no browser
// Origin. Frames go to the ExtensionClient, which owns the protocol; this file only moves bytes.
import type { MiddlewareHandler } from "hono";
import type { ExtensionClient, ExtensionConnection } from "../../extension/extension-client.ts";
import { EXTENSION_AUTH_HEADER, EXTENSION_PATH } from "../../extension/protocol.ts";
import type { Logger } from "../../log.ts";
import type { Runtime } from "../../ports/runtime.ts";
import { isAllowedHost, type HostPolicy } from "../../security/auth/host-origin.ts";
import { tokensEqual } from "../../security/auth/tokens.ts";
import { CloseCode } from "../../wire.ts";

interface ExtensionSocketOptions {
  runtime: Pick<Runtime, "upgradeWebSocket">;
  token: string;
  hostPolicy: HostPolicy;
  client: ExtensionClient;
  logger: Logger;
}

export function extensionSocket(opts: ExtensionSocketOptions): MiddlewareHandler {
  const upgrade = opts.runtime.upgradeWebSocket(() => {
    let connection: ExtensionConnection | undefined;
    return {
      onOpen(_event, ws) {
        connection = opts.client.attach({ send: (text) => ws.send(text), close: (code, reason) => ws.close(code, reason) });
      },
      onMessage(event, ws) {
        if (typeof event.data !== "string") {
          ws.close(CloseCode.internalError, "the extension link takes JSON-RPC in text frames");
          return;
        }
        connection?.receive(event.data);
      },
      onClose() {
        connection?.closed();
      },
      onError(event) {
        opts.logger.warn("extension WebSocket error", { error: String(event.type) });
      },
    };
  });
  return async (c, next) => {
    if ((c.req.header("upgrade") ?? "").toLowerCase() !== "websocket" || c.req.header(EXTENSION_AUTH_HEADER) === undefined) return next();
    if (c.req.path !== EXTENSION_PATH) return c.text(`Bad WebSocket upgrade request: the extension connects to ${EXTENSION_PATH}`, 404);
    if (!isAllowedHost(c.req.header("host"), opts.hostPolicy)) {
      return c.text("Forbidden: Host is not a loopback address (DNS rebinding protection)", 403);
    }
    if (c.req.header("origin") !== undefined) return c.text("Forbidden: browser origins may not open the extension socket", 403);
    if (!tokensEqual(c.req.header(EXTENSION_AUTH_HEADER), opts.token)) {
      return c.text("Bad WebSocket upgrade request: Invalid extension token (the lock file's authToken)", 401);
    }
    return upgrade(c, next);
  };
}
