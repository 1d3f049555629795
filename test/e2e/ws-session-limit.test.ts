// --max-ws-sessions at its edge, against the real bridge: when connected clients hold every place, a
// new socket is refused before the upgrade (503 + Retry-After, so the shim backs off instead of
// reconnecting in a loop); a client coming back for its kept session always gets in; a session in
// its grace period gives way to a newcomer.
import { randomUUID } from "node:crypto";
import { request } from "node:http";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startBridgeProcess, type BridgeProcess } from "../helpers/spawn-bridge.ts";
import { AUTH_HEADER, tryConnect, waitForClose, type ConnectOutcome } from "../helpers/ws-client.ts";

let bridge: BridgeProcess;

beforeAll(async () => {
  bridge = await startBridgeProcess({ args: ["--max-ws-sessions", "2"] });
});
afterAll(async () => {
  await bridge?.stop();
});

function connect(sessionId: string): Promise<ConnectOutcome> {
  return tryConnect(bridge.wsUrl, { headers: { [AUTH_HEADER]: bridge.token, "x-claude-code-session-id": sessionId } });
}

async function opened(sessionId: string) {
  const outcome = await connect(sessionId);
  if (!outcome.ok) throw new Error(`upgrade refused: HTTP ${outcome.status} ${outcome.body}`);
  return outcome.ws;
}

/** The raw refusal of an upgrade: status and headers (the ws client does not expose headers). */
function rawUpgrade(sessionId: string): Promise<{ status: number; retryAfter: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = request(bridge.wsUrl.replace("ws:", "http:"), {
      headers: {
        connection: "Upgrade",
        upgrade: "websocket",
        "sec-websocket-version": "13",
        "sec-websocket-key": "dGhlIHNhbXBsZSBub25jZQ==",
        [AUTH_HEADER]: bridge.token,
        "x-claude-code-session-id": sessionId,
      },
    });
    req.on("response", (res) => {
      res.resume();
      const retryAfter = res.headers["retry-after"];
      resolve({ status: res.statusCode ?? 0, retryAfter: Array.isArray(retryAfter) ? retryAfter[0] : retryAfter });
    });
    req.on("upgrade", (_res, socket) => {
      socket.destroy();
      reject(new Error("the upgrade was accepted"));
    });
    req.on("error", reject);
    req.end();
  });
}

it("refuses a third client with 503 + Retry-After, lets a kept session back in, and makes room from grace", async () => {
  const a = randomUUID();
  const b = randomUUID();
  const first = await opened(a);
  const second = await opened(b);

  const third = await connect(randomUUID());
  expect(third).toMatchObject({ ok: false, status: 503 });
  expect(await rawUpgrade(randomUUID())).toEqual({ status: 503, retryAfter: "10" });

  // The same client id again: its kept session, and the older socket of it is closed with 4000.
  const again = await opened(a);
  expect((await waitForClose(first)).code).toBe(4000);

  // b drops: its session waits in grace, and a newcomer may take its place.
  second.close();
  await waitForClose(second);
  await expect
    .poll(
      async () =>
        (
          (await (await fetch(`${bridge.url}/health`, { headers: { authorization: `Bearer ${bridge.token}` } })).json()) as {
            sessionsInGrace: number;
          }
        ).sessionsInGrace,
    )
    .toBe(1);
  const newcomer = await opened(randomUUID());
  again.close();
  newcomer.close();
});
