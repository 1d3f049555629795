// Property tests for "bad input gets a clear error and the server keeps serving": random text,
// random JSON-RPC-shaped messages and random tool arguments against the real engine and the real
// workspace tools, which run git, rg and gh. The HTTP handler's case is a unit test:
// test/unit/transports/http-fuzz.test.ts.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createNodeRuntime } from "../../../runtime/node.ts";
import { silentLogger } from "../../../src/log.ts";
import type { JsonRpcResponse } from "../../../src/mcp/protocol/jsonrpc.ts";
import { credentialBudget } from "../../../src/mcp/limits/rate-budget.ts";
import { McpSession } from "../../../src/mcp/sessions/session.ts";
import { createWorkspace, type Workspace } from "../../../src/security/jail/workspace-jail.ts";
import { ToolRegistry } from "../../../src/tools/platform/registry.ts";
import { createToolEnvironment, toolContext } from "../../../src/tools/platform/tool-environment.ts";
import { TOOLSETS } from "../../../src/tools/toolsets.ts";
import { testEventBus } from "../../helpers/session-fixture.ts";

const RUNS = 300;
let root: string;
let workspace: Workspace;
const registry = new ToolRegistry(TOOLSETS, { slim: false, maxResultChars: 100_000 });
const runtime = createNodeRuntime();

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "fuzz-ws-"));
  await writeFile(join(root, "a.txt"), "one\ntwo\nthree\n");
  await writeFile(join(root, "package.json"), '{"name":"fuzz"}');
  workspace = await createWorkspace(runtime.fs, { root });
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

function realSession(): McpSession {
  const limits = { requestsPerMinute: 100_000, toolCallsPerMinute: 100_000, timeoutMs: 5000, maxResultChars: 100_000, pageSize: 200 };
  const events = testEventBus();
  const env = createToolEnvironment(runtime, {
    workspace,
    settings: { maxResultChars: 100_000, timeoutMs: 5000, slim: false },
    catalog: registry,
    events,
  });
  return new McpSession({
    registry,
    logger: silentLogger,
    limits,
    credential: credentialBudget(limits),
    events,
    makeToolContext: (call) => toolContext(env, call),
  });
}

function expectWellFormed(response: JsonRpcResponse | undefined): void {
  if (!response) return;
  expect(response.jsonrpc).toBe("2.0");
  if ("error" in response) {
    expect(Number.isInteger(response.error.code)).toBe(true);
    expect(response.error.message.length).toBeGreaterThan(0);
  } else {
    expect(typeof response.result).toBe("object");
  }
}

const jsonValue = fc.jsonValue({ maxDepth: 3 });
const methods = fc.oneof(
  fc.constantFrom(
    "initialize",
    "ping",
    "tools/list",
    "tools/call",
    "logging/setLevel",
    "resources/list",
    "prompts/get",
    "notifications/cancelled",
  ),
  fc.string(),
);

describe("the engine under random input", () => {
  it("answers any text with a well-formed response or nothing, and keeps serving", async () => {
    const session = realSession();
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.string(), fc.json(), fc.string({ unit: "binary" })), async (text) => {
        expectWellFormed(await session.handleText(text));
      }),
      { numRuns: RUNS },
    );
    expect(await session.handleText(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }))).toEqual({
      jsonrpc: "2.0",
      id: 1,
      result: {},
    });
  });

  it("answers JSON-RPC-shaped messages with random methods, ids and params", async () => {
    const session = realSession();
    const message = fc.record(
      {
        jsonrpc: fc.oneof(fc.constant("2.0"), jsonValue),
        id: fc.oneof(fc.integer(), fc.string(), jsonValue),
        method: methods,
        params: fc.oneof(fc.dictionary(fc.string(), jsonValue), jsonValue),
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(message, async (m) => {
        expectWellFormed(await session.handleText(JSON.stringify(m)));
      }),
      { numRuns: RUNS },
    );
  });

  it("gives every tool random arguments: always a result with content, never a crash", async () => {
    const session = realSession();
    await session.handleText(
      JSON.stringify({
        jsonrpc: "2.0",
        id: 0,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "fuzz" } },
      }),
    );
    const names = registry.entries().map((e) => e.name);
    const hostilePath = fc.constantFrom(
      "../../etc/passwd",
      "/etc/passwd",
      "a.txt\u0000.png",
      "",
      "./././a.txt",
      "file:///etc/passwd",
      "%2e%2e/x",
      "a".repeat(5000),
    );
    const args = fc.dictionary(
      fc.constantFrom("path", "pattern", "startLine", "endLine", "maxBytes", "maxDepth", "maxEntries", "maxResults", "includeHidden", "x"),
      fc.oneof(jsonValue, hostilePath),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...names), args, async (name, a) => {
        const response = await session.handleText(
          JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: a } }),
        );
        expectWellFormed(response);
        if (response && "result" in response) {
          expect(Array.isArray(response.result.content)).toBe(true);
          const text = JSON.stringify(response.result);
          expect(text).not.toMatch(/root:x:0:0/); // nothing from outside the workspace leaks
        }
      }),
      { numRuns: RUNS },
    );
  });
});
