// --verbose logs every refused request with its status and why, and never a token or
// what a request carried; without --verbose nothing is even read. POST /shutdown (stop) needs the
// token and answers before the bridge stops.
import { describe, expect, it } from "vitest";
import { createLogger } from "../../../src/log.ts";
import { initialize, makeApp, MCP_HEADERS, post, TOKEN } from "../../helpers/in-process-app.ts";

function recordingApp(verbose = true, onShutdownRequest?: () => void) {
  const lines: string[] = [];
  const logger = createLogger({ verbose, jsonl: true, write: (line) => lines.push(line) });
  const { app } = makeApp({ logger, onShutdownRequest, limits: { requestsPerMinute: 1 } });
  const refusals = () => lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.msg === "refused a request");
  return { app, lines, refusals };
}

describe("refused requests under --verbose", () => {
  it("logs 401, 403, 404, 413 and 429 with the reason, the session id and no token", async () => {
    const { app, lines, refusals } = recordingApp();
    const secret = "wrong-token-that-must-not-be-logged";
    await app.request("http://127.0.0.1:3000/mcp", {
      method: "POST",
      headers: { ...MCP_HEADERS, authorization: `Bearer ${secret}` },
      body: "{}",
    });
    await app.request("http://127.0.0.1:3000/health", { headers: { host: "evil.example", authorization: `Bearer ${TOKEN}` } });
    await post(
      app,
      { jsonrpc: "2.0", id: 1, method: "ping" },
      { "mcp-session-id": "no-such-session", "mcp-protocol-version": "2025-11-25" },
    );
    await post(app, `{"pad":"${"x".repeat(5 * 1024 * 1024)}"}`);
    await app.request("http://127.0.0.1:3000/", {
      headers: { host: "127.0.0.1:3000", upgrade: "websocket", "x-claude-code-ide-authorization": secret },
    });
    const session = await initialize(app);
    await post(app, { jsonrpc: "2.0", id: 2, method: "ping" }, { "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" });
    const limited = await post(
      app,
      { jsonrpc: "2.0", id: 3, method: "ping" },
      { "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" },
    );
    expect(limited.status).toBe(429);

    expect(refusals().map((r) => [r.status, r.method, r.path])).toEqual([
      [401, "POST", "/mcp"],
      [403, "GET", "/health"],
      [404, "POST", "/mcp"],
      [413, "POST", "/mcp"],
      [401, "GET", "/"],
      [429, "POST", "/mcp"],
    ]);
    const [unauthorized, forbidden, unknown, tooLarge, socket, rate] = refusals();
    expect(unauthorized?.why).toMatch(/^Unauthorized: invalid bearer token/);
    expect(forbidden?.why).toMatch(/Host header is not allowed/);
    expect(unknown).toMatchObject({ why: "Session not found", session: "no-such-session" });
    expect(tooLarge?.why).toMatch(/^Payload Too Large/);
    expect(socket).toMatchObject({ websocket: true, why: "Bad WebSocket upgrade request: Invalid authentication token" });
    expect(rate).toMatchObject({ session });
    expect(lines.join("\n")).not.toContain(secret);
    expect(lines.join("\n")).not.toContain(TOKEN);
    expect(lines.join("\n")).not.toContain("xxxx");
  });

  it("logs nothing, and reads no body, without --verbose", async () => {
    const { app, lines } = recordingApp(false);
    const response = await app.request("http://127.0.0.1:3000/health", { headers: { host: "127.0.0.1:3000" } });
    expect(response.status).toBe(401);
    expect(await response.text()).toMatch(/Unauthorized/); // the body was not consumed by the log
    expect(lines).toEqual([]);
  });
});

describe("POST /shutdown", () => {
  it("needs the token, answers 202, then asks the bridge to stop", async () => {
    let asked = 0;
    const stopped = new Promise<void>((resolve) => {
      const { app } = recordingApp(false, () => {
        asked++;
        resolve();
      });
      void (async () => {
        expect((await app.request("http://127.0.0.1:3000/shutdown", { method: "POST", headers: { host: "127.0.0.1:3000" } })).status).toBe(
          401,
        );
        expect(asked).toBe(0);
        const ok = await app.request("http://127.0.0.1:3000/shutdown", {
          method: "POST",
          headers: { host: "127.0.0.1:3000", authorization: `Bearer ${TOKEN}` },
        });
        expect(ok.status).toBe(202);
      })();
    });
    await stopped;
    expect(asked).toBe(1);
  });

  it("does not exist when the bridge cannot be stopped that way", async () => {
    const { app } = recordingApp(false);
    expect(
      (
        await app.request("http://127.0.0.1:3000/shutdown", {
          method: "POST",
          headers: { host: "127.0.0.1:3000", authorization: `Bearer ${TOKEN}` },
        })
      ).status,
    ).toBe(404);
  });
});
