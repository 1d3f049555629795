// The WebSocket Claude Code connects to (IDE protocol, reference/protocol.md A2): any path,
// `x-claude-code-ide-authorization` checked in constant time, no browser Origin, loopback Host,
// subprotocol `mcp` echoed by the runtime adapter. One text frame per JSON-RPC message.
import type { MiddlewareHandler } from "hono";
import type { Runtime } from "../../../runtime/types.ts";
import { errorMessageFor } from "../../mcp/jsonrpc.ts";
import type { McpSession } from "../../mcp/session.ts";
import { ProtocolError, RpcCode } from "../../errors.ts";
import type { Logger } from "../../log.ts";
import { isAllowedHost, type HostPolicy } from "../../security/host-origin.ts";
import { tokensEqual } from "../../security/tokens.ts";
import { SafeSender } from "./safe-sender.ts";

export const IDE_AUTH_HEADER = "x-claude-code-ide-authorization";

export interface ClaudeCodeSocketOptions {
  runtime: Pick<Runtime, "upgradeWebSocket" | "webSocketInfo">;
  token: string;
  hostPolicy: HostPolicy;
  createSession(): McpSession;
  logger: Logger;
  /** Called with the number of open Claude Code sockets whenever it changes. */
  onCountChange?(open: number): void;
}

export function claudeCodeSocket(opts: ClaudeCodeSocketOptions): MiddlewareHandler {
  let open = 0;
  const upgrade = opts.runtime.upgradeWebSocket(() => {
    const session = opts.createSession();
    let sender: SafeSender | undefined;
    return {
      onOpen(_event, ws) {
        sender = new SafeSender(ws, opts.runtime.webSocketInfo);
        session.attach(sender);
        opts.onCountChange?.(++open);
        opts.logger.info("Claude Code connected over WebSocket", { session: session.id });
      },
      onMessage(event, ws) {
        const out = sender;
        if (!out) return;
        if (typeof event.data !== "string") {
          out.send(errorMessageFor(null, new ProtocolError(RpcCode.parseError, "Parse error: binary frames are not supported; send JSON-RPC as text frames")));
          return;
        }
        session.handleText(event.data).then(
          (response) => response && out.send(response),
          (err: unknown) => {
            opts.logger.error("WebSocket message failed", { error: String(err) });
            ws.close(1011, "internal error");
          },
        );
      },
      onClose(event) {
        sender?.dispose();
        session.close("socket closed");
        opts.onCountChange?.(--open);
        opts.logger.info("Claude Code WebSocket closed", { session: session.id, code: event.code });
      },
      onError(event) {
        opts.logger.warn("WebSocket error", { error: String(event.type) });
      },
    };
  });

  return async (c, next) => {
    if ((c.req.header("upgrade") ?? "").toLowerCase() !== "websocket") return next();
    if (!isAllowedHost(c.req.header("host"), opts.hostPolicy)) {
      return c.text("Forbidden: Host is not a loopback address (DNS rebinding protection)", 403);
    }
    if (c.req.header("origin") !== undefined) {
      return c.text("Forbidden: browser origins may not open the Claude Code socket", 403);
    }
    const given = c.req.header(IDE_AUTH_HEADER);
    if (given === undefined) {
      return c.text(`Bad WebSocket upgrade request: Missing authentication header: ${IDE_AUTH_HEADER}`, 401);
    }
    if (!tokensEqual(given, opts.token)) {
      return c.text("Bad WebSocket upgrade request: Invalid authentication token", 401);
    }
    return upgrade(c, next);
  };
}
