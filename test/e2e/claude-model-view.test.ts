// The real Claude Code CLI in print mode (`claude -p`), its model replaced by a scripted fake of
// the Messages API (test/helpers/fake-model-api.ts), calls getWorkspaceFolders on a real bridge,
// over HTTP, through the stdio shim, and through the plain `shim` entry a user adds with no bridge
// running (it starts its own). Checked: the tool_result the model receives carries the
// workspace path, and the model got a follow-up turn whose text the CLI printed as its result.
// And why the server is never named "ide": the model is then shown none of its tools.
// Runs both CLI releases the repository pins, or each of CLAUDE_BINS (paths separated like PATH).
import { rm } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callToolThroughClaude } from "../helpers/call-tool-through-claude.ts";
import { claudeBinsFromEnv, describeRun, runClaudePrint, type BridgeTransport } from "../helpers/claude-print.ts";
import { startFakeModelApi } from "../helpers/fake-model-api.ts";
import { makeWorkspace, startBridgeProcess, type BridgeProcess } from "../helpers/spawn-bridge.ts";

const CLI_TIMEOUT_MS = 90_000;

let bridge: BridgeProcess;

beforeAll(async () => {
  bridge = await startBridgeProcess();
});

afterAll(async () => {
  await bridge?.stop();
});

describe.each(claudeBinsFromEnv())("claude -p through the fake model API (%s)", (claudeBin) => {
  // What the model is shown of a result can change with the release, so every release reads one
  // over each transport. The shim's spawning and the name ide are the newest release's behaviour to
  // hold (the first in the list): the older one runs only the reads.
  const newest = claudeBin === claudeBinsFromEnv()[0];
  it.each<BridgeTransport>(["http", "shim"])(
    "getWorkspaceFolders over %s: the model receives the workspace path and answers after it",
    async (transport) => {
      const call = await callToolThroughClaude({ bridge, tool: "getWorkspaceFolders", claudeBin, transport, timeoutMs: CLI_TIMEOUT_MS });
      const why = describeRun(call.run);
      expect(call.toolResultBlock.is_error ?? false, `the tool failed: ${call.toolResult}\n${why}`).toBe(false);
      expect(call.toolResult, why).toContain(bridge.workspace);
      // The follow-up turn: the request after the tool_result was answered with the final text.
      expect(call.run.turns.length, why).toBeGreaterThanOrEqual(2);
      expect(call.run.result?.is_error, why).toBe(false);
      expect(call.run.result?.result, why).toBe(call.finalText);
      expect(call.run.exitCode, why).toBe(0);
      if (call.deferred) expect(call.toolSearchUsed, why).toBe(true);
    },
    CLI_TIMEOUT_MS + 30_000,
  );

  it.runIf(newest)(
    "getWorkspaceFolders through a shim that started its own bridge for the project",
    async () => {
      const workspace = await makeWorkspace();
      try {
        const call = await callToolThroughClaude({
          tool: "getWorkspaceFolders",
          claudeBin,
          transport: "shim-spawn",
          cwd: workspace,
          timeoutMs: CLI_TIMEOUT_MS,
        });
        const why = describeRun(call.run);
        expect(call.run.spawnedBridges, why).toEqual([workspace]);
        expect(call.toolResultBlock.is_error ?? false, `the tool failed: ${call.toolResult}\n${why}`).toBe(false);
        expect(call.toolResult, why).toContain(workspace);
        expect(call.run.result?.result, why).toBe(call.finalText);
      } finally {
        await rm(workspace, { recursive: true, force: true });
      }
    },
    CLI_TIMEOUT_MS + 30_000,
  );

  it.runIf(newest)(
    "a server named ide shows the model only the two IDE tools Claude Code lets through; under another name it sees them all",
    async () => {
      // Offered as a tool, or named in the deferred-tools list of tool search: anywhere in the request.
      const firstTurnNames = async (serverName: string) => {
        const run = await runClaudePrint("hello", {
          bridge,
          claudeBin,
          transport: "shim",
          serverName,
          script: () => ({ text: "hi" }),
          timeoutMs: CLI_TIMEOUT_MS,
        });
        const text = JSON.stringify(run.turns[0] ?? {});
        return [...new Set(text.match(new RegExp(`mcp__${serverName}__[A-Za-z]+`, "g")) ?? [])];
      };
      // Claude Code reserves the name ide for its own IDE integration and keeps only these two.
      const ideNames = await firstTurnNames("ide");
      expect(ideNames.filter((n) => n !== "mcp__ide__getDiagnostics" && n !== "mcp__ide__executeCode")).toEqual([]);
      const bridgeNames = await firstTurnNames("bridge");
      expect(bridgeNames).toContain("mcp__bridge__getWorkspaceFolders");
      expect(bridgeNames).toContain("mcp__bridge__getDiagnostics");
    },
    2 * CLI_TIMEOUT_MS + 30_000,
  );
});

// The fake must speak the API's wire format, or a passing CLI run above would prove little about
// what the real API sends. A tool call, streamed and not, read back the way a client reads it.
it("the fake model API answers a tool call as JSON and as server-sent events", async () => {
  const api = await startFakeModelApi(() => ({
    text: "Let me look.",
    toolUses: [{ name: "mcp__bridge__readFile", input: { path: "src/a.ts", startLine: 10 } }],
  }));
  try {
    const ask = (stream: boolean) =>
      fetch(`${api.url}/v1/messages?beta=true`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-api-key": "test-key" },
        body: JSON.stringify({
          model: "m",
          max_tokens: 100,
          stream,
          messages: [{ role: "user", content: "hi" }],
          tools: [{ name: "mcp__bridge__readFile" }],
        }),
      });
    const plain = (await (await ask(false)).json()) as {
      stop_reason: string;
      content: Array<{ type: string; input?: unknown; text?: string }>;
    };
    expect(plain.stop_reason).toBe("tool_use");
    expect(plain.content).toMatchObject([
      { type: "text", text: "Let me look." },
      { type: "tool_use", name: "mcp__bridge__readFile", input: { path: "src/a.ts", startLine: 10 } },
    ]);

    const streamed = await ask(true);
    expect(streamed.headers.get("content-type")).toBe("text/event-stream");
    const events = (await streamed.text())
      .split("\n\n")
      .filter(Boolean)
      .map((record) => {
        const [eventLine, dataLine] = record.split("\n");
        const data = JSON.parse(dataLine?.replace(/^data: /, "") ?? "") as {
          type: string;
          delta?: { partial_json?: string; stop_reason?: string };
        };
        expect(eventLine).toBe(`event: ${data.type}`);
        return data;
      });
    expect(events.map((e) => e.type).filter((t) => t !== "content_block_delta")).toEqual([
      "message_start",
      "ping",
      "content_block_start",
      "content_block_stop",
      "content_block_start",
      "content_block_stop",
      "message_delta",
      "message_stop",
    ]);
    const json = events.map((e) => e.delta?.partial_json ?? "").join("");
    expect(JSON.parse(json)).toEqual({ path: "src/a.ts", startLine: 10 });
    expect(events.find((e) => e.type === "message_delta")?.delta?.stop_reason).toBe("tool_use");

    const count = await fetch(`${api.url}/v1/messages/count_tokens`, {
      method: "POST",
      body: JSON.stringify({ model: "m", messages: [] }),
    });
    expect(((await count.json()) as { input_tokens: number }).input_tokens).toBeGreaterThan(0);
    expect(api.requests.map((r) => r.kind)).toEqual(["turn", "turn", "count_tokens"]);
  } finally {
    await api.close();
  }
});
