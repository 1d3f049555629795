// The WebSocket Claude Code connects to (IDE protocol, reference/protocol.md A2): every path,
// `x-claude-code-ide-authorization` checked in constant time, no browser Origin, loopback Host,
// subprotocol `mcp` echoed by the runtime adapter. One text frame per JSON-RPC message.
// Sessions come from the SessionStore, so a client that reconnects within the grace period
// with the same x-claude-code-session-id continues where it was. A socket that is not the stdio
// shim's (which opts into the attach notice) is Claude Code's IDE link: its session serves the IDE
// tools (protocol.md A4) and gets the IDE notifications (ide-link-hub.ts).
import type { MiddlewareHandler } from "hono";
import type { Runtime } from "../../ports/runtime.ts";
import { errorMessageFor, type JsonRpcResponse, notificationMessage, type Params } from "../../mcp/protocol/jsonrpc.ts";
import { CLIENT_ID, STORE_FULL_RETRY_AFTER_SECONDS, type Attachment, type SessionStore } from "../../mcp/sessions/session-store.ts";
import { ProtocolError, RpcCode } from "../../errors.ts";
import type { Logger } from "../../log.ts";
import { isAllowedHost, type HostPolicy } from "../../security/auth/host-origin.ts";
import { tokensEqual } from "../../security/auth/tokens.ts";
import {
  ATTACH_NOTICE_HEADER,
  ATTACH_NOTICE_METHOD,
  CLIENT_DONE_REASON,
  CloseCode,
  IDE_AUTH_HEADER,
  SESSION_ID_HEADER,
} from "../../wire.ts";
import type { ToolRegistry } from "../../tools/platform/registry.ts";
import type { IdeLinkHub } from "./ide-link-hub.ts";
import { SafeSender } from "./safe-sender.ts";

interface ClaudeCodeSocketOptions {
  runtime: Pick<Runtime, "upgradeWebSocket" | "webSocketInfo">;
  token: string;
  hostPolicy: HostPolicy;
  store: SessionStore;
  logger: Logger;
  /** Called with the number of open Claude Code sockets whenever it changes. */
  onCountChange?(open: number): void;
  /** Claude Code's IDE link: the tools its sessions serve, and where its notifications come from. */
  ideLink?: { registry: ToolRegistry; hub: IdeLinkHub };
}

export function claudeCodeSocket(opts: ClaudeCodeSocketOptions): MiddlewareHandler {
  let open = 0;
  const failed = (ws: { close(code?: number, reason?: string): void }, err: unknown): void => {
    opts.logger.error("WebSocket message failed", { error: String(err) });
    ws.close(CloseCode.internalError, "internal error");
  };
  const upgrade = opts.runtime.upgradeWebSocket((c) => {
    const clientId = c.req.header(SESSION_ID_HEADER);
    const wantsNotice = c.req.header(ATTACH_NOTICE_HEADER) !== undefined;
    let attachment: Attachment | undefined;
    let sender: SafeSender | undefined;
    let leaveHub: (() => void) | undefined;
    const ideLink = wantsNotice ? undefined : opts.ideLink;
    // What becomes of an answer, made once per socket rather than twice per message: sent while
    // this socket is still its session's (a reattached session has a newer one).
    const deliver = (response: JsonRpcResponse | undefined): void => {
      if (response && attachment?.current()) sender?.send(response);
      if (ideLink !== undefined) ideLink.hub.activity();
    };
    return {
      onOpen(_event, ws) {
        sender = new SafeSender(ws, () => opts.runtime.webSocketInfo.bufferedAmount(ws));
        attachment = opts.store.attach(clientId, {
          sink: sender,
          evictSocket: () => ws.close(CloseCode.superseded, "superseded by a newer connection of this session"),
        });
        opts.onCountChange?.(++open);
        if (ideLink !== undefined) {
          const session = attachment.session;
          session.registry = ideLink.registry;
          leaveHub = ideLink.hub.add({ session: session.id, sink: sender, ready: () => session.initialized && !session.closed });
        }
        if (wantsNotice) sender.send(notificationMessage(ATTACH_NOTICE_METHOD, attachNotice(attachment)));
        opts.logger.info(`Claude Code ${attachment.resumed ? "reconnected" : "connected"} over WebSocket`, {
          session: attachment.session.id,
        });
      },
      onMessage(event, ws) {
        const out = sender;
        const current = attachment;
        if (!out || !current?.current()) return;
        if (typeof event.data !== "string") {
          out.send(
            errorMessageFor(
              null,
              new ProtocolError(RpcCode.parseError, "Parse error: binary frames are not supported; send JSON-RPC as text frames"),
            ),
          );
          return;
        }
        // Written at once when the answer is there at once (a ping): see McpSession.handleText.
        try {
          const answer = current.session.handleText(event.data);
          if (answer instanceof Promise) answer.then(deliver, (err: unknown) => failed(ws, err));
          else deliver(answer);
        } catch (err) {
          failed(ws, err);
        }
      },
      onClose(event) {
        sender?.dispose();
        leaveHub?.();
        if (wantsNotice && event.code === CloseCode.normal && event.reason === CLIENT_DONE_REASON) attachment?.end(CLIENT_DONE_REASON);
        else attachment?.detach();
        opts.onCountChange?.(--open);
        opts.logger.info("Claude Code WebSocket closed", { session: attachment?.session.id, code: event.code });
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
    const clientId = c.req.header(SESSION_ID_HEADER);
    if (clientId !== undefined && !CLIENT_ID.test(clientId)) {
      return c.text(`Bad WebSocket upgrade request: ${SESSION_ID_HEADER} must be 8-128 chars of [A-Za-z0-9._:-] (a UUID)`, 400);
    }
    // Refused before the upgrade, so no session is made and the shim retries with its backoff (a
    // socket that opens and is closed with 1013 makes it reconnect at once, in a tight loop).
    if (!opts.store.hasRoom(clientId)) {
      opts.logger.warn("refusing a WebSocket: connected clients hold every session place", { maxWsSessions: opts.store.maxSessions });
      return c.text(
        `Service Unavailable: all ${opts.store.maxSessions} WebSocket sessions are connected (--max-ws-sessions); retry in ${STORE_FULL_RETRY_AFTER_SECONDS} s`,
        503,
        {
          "retry-after": String(STORE_FULL_RETRY_AFTER_SECONDS),
        },
      );
    }
    return upgrade(c, next);
  };
}

function attachNotice(attachment: Attachment): Params {
  const { session, resumed } = attachment;
  const notice: Params = { session: session.id, resumed, initialized: session.initialized };
  if (session.protocolVersion !== undefined) notice.protocolVersion = session.protocolVersion;
  return notice;
}
