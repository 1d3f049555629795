// Property test for "bad input gets a clear error and the server keeps serving" on the real HTTP
// handler, in-process (split from test/integration/mcp/fuzz-input.test.ts, whose engine and tool
// cases run the tools' programs).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { initialize, makeApp, post } from "../../helpers/in-process-app.ts";

const RUNS = 300;

describe("the HTTP handler under random input", () => {
  it("never answers 5xx to random bodies and headers, and keeps serving", async () => {
    const { app } = makeApp({ maxSessions: 100 });
    const session = await initialize(app);
    const headerValue = fc.oneof(
      fc.string(),
      fc.constantFrom("application/json", "text/event-stream", session, "2025-11-25", "2099-01-01"),
    );
    const headers = fc.dictionary(
      fc.constantFrom("accept", "content-type", "mcp-session-id", "mcp-protocol-version", "last-event-id", "origin"),
      headerValue,
    );
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.string(), fc.json()), headers, async (body, extra) => {
        const safe = Object.fromEntries(Object.entries(extra).filter(([, v]) => /^[\t\x20-\x7e]*$/.test(v)));
        const response = await post(app, body, safe);
        expect(response.status).toBeLessThan(500);
        await response.body?.cancel();
      }),
      { numRuns: RUNS },
    );
    const ping = await post(app, { jsonrpc: "2.0", id: 1, method: "ping" }, { "mcp-session-id": session });
    expect(ping.status).toBe(200);
  });
});
