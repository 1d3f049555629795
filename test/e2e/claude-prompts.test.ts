// The real Claude Code CLI (print mode, the scripted stand-in for the model's API) with the bridge
// over HTTP, in ONE run: the user's prompt is the bridge's prompt as a slash command
// (/mcp__bridge__explain-file README.md), which the CLI expands into the text the bridge assembled;
// the model then reads a workspace file through Claude Code's ReadMcpResource tool.
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { resultText, toolCallScript } from "../helpers/call-tool-through-claude.ts";
import { describeRun, runClaudePrint } from "../helpers/claude-print.ts";
import { blocksOf, isToolResult, type MessagesRequest } from "../helpers/model-api-types.ts";
import { type BridgeProcess, startBridgeProcess } from "../helpers/spawn-bridge.ts";

const MARKER = "marker-7f3a: the fixture's own words";
let bridge: BridgeProcess;

beforeAll(async () => {
  bridge = await startBridgeProcess();
  await writeFile(join(bridge.workspace, "GUIDE.md"), `# Guide\n\n${MARKER}\n`);
});

afterAll(async () => {
  await bridge?.stop();
});

function userText(request: MessagesRequest): string {
  return request.messages
    .filter((m) => m.role === "user")
    .flatMap((m) => blocksOf(m))
    .map((b) => ("text" in b && typeof b.text === "string" ? b.text : ""))
    .join("\n");
}

it("runs a bridge prompt as a slash command and reads a resource through ReadMcpResource", async () => {
  const uri = `file://${bridge.workspace}/GUIDE.md`;
  let readTool = "ReadMcpResourceTool";
  const script = (request: MessagesRequest, info: { turn: number }) => {
    readTool = request.tools?.find((t) => /ReadMcpResource/.test(t.name))?.name ?? readTool;
    return toolCallScript(readTool, { args: { server: "bridge", uri }, finalText: "Read it." })(request, info);
  };
  const run = await runClaudePrint("/mcp__bridge__explain-file GUIDE.md", {
    bridge,
    script,
    allowedTools: ["ReadMcpResourceTool", "mcp__bridge"],
  });
  const first = run.turns[0];
  expect(first, describeRun(run)).toBeDefined();
  // The slash command reached the model as the prompt the bridge assembled from readFile.
  const asked = userText(first as MessagesRequest);
  expect(asked, describeRun(run)).toContain("Explain GUIDE.md");
  expect(asked).toContain(MARKER);
  expect(asked).toMatch(/<untrusted-data id="[0-9a-f]{12}"/);
  // ReadMcpResource's answer carried the file's text.
  const last = run.turns.at(-1) as MessagesRequest;
  const results = last.messages.flatMap((m) => blocksOf(m)).filter(isToolResult);
  expect(results.map((r) => resultText(r)).join("\n"), describeRun(run)).toContain(MARKER);
  expect(run.result?.result).toBe("Read it.");
}, 180_000);
