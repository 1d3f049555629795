// What the model actually receives from a bridge tool, through the real Claude Code CLI: each CLI
// runs `claude -p` against a scripted stand-in for the model's API (test/helpers/fake-model-api.ts)
// that calls the tool (after ToolSearch when the CLI defers MCP tools) and records the tool_result
// it is sent. Measured: readFile of a 200-line TypeScript file, and getFileTree of this repository.
// Baseline, same run: the same call made directly over MCP, i.e. what the bridge put in its text
// content and in structuredContent (Claude Code forwards only the latter when there is one).
// Also: whether the CLI deferred the tools, and what its first request showed of them; each CLI's
// first request body is written to <out>/model-view-first-request-<version>.json, and the last
// CLI's also to <out>/model-view-first-request.json (<out>: MODEL_VIEW_OUT, default the temp dir).
// Usage: node bench/model-view.mjs [claude-bin ...]   (run `npm run build` first)
//   CLIs: the arguments, else CLAUDE_BINS (separated like PATH), else node_modules/.bin/claude.
//   TOOL_SEARCH=true|false sets ENABLE_TOOL_SEARCH for the CLIs (default: each CLI decides).
import { execFileSync } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { register } from "tsx/esm/api";

// The harness is the e2e tests' own TypeScript; tsx lets plain Node import it unchanged.
register();
const helpers = new URL("../test/helpers/", import.meta.url);
const { callToolThroughClaude, qualifiedToolName } = await import(new URL("call-tool-through-claude.ts", helpers).href);
const { claudeBinsFromEnv, DEFAULT_SERVER_NAME } = await import(new URL("claude-print.ts", helpers).href);
const { REPO_ROOT, startBridgeProcess, stopAllBridges } = await import(new URL("spawn-bridge.ts", helpers).href);
const { systemText } = await import(new URL("model-api-types.ts", helpers).href);
const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
const { StreamableHTTPClientTransport } = await import("@modelcontextprotocol/sdk/client/streamableHttp.js");

const bins = claudeBinsFromEnv(process.argv.length > 2 ? process.argv.slice(2).join(delimiter) : undefined);
const toolSearch = process.env.TOOL_SEARCH === undefined ? undefined : process.env.TOOL_SEARCH === "true";
const outDir = process.env.MODEL_VIEW_OUT ?? tmpdir();
const FILE = "src/inventory-service.ts";
const PREVIEW_CHARS = 300;

/** 200 lines of ordinary TypeScript: interfaces, functions, string and template literals. */
function typescriptSource() {
  const lineCount = 200;
  const entities = ["Order", "Invoice", "Customer", "Product", "Shipment", "Payment", "Refund", "Warehouse", "Supplier", "Coupon"];
  const lines = [
    "// Inventory service: the records a small shop keeps, and what it says about them.",
    'import { randomUUID } from "node:crypto";',
    "",
  ];
  for (const name of entities) {
    const v = name[0].toLowerCase() + name.slice(1);
    lines.push(
      `/** One ${v} record as stored; "archived" ones are kept for audits. */`,
      `export interface ${name} {`,
      "  id: string;",
      '  status: "draft" | "active" | "archived";',
      "  createdAt: Date;",
      "  tags: string[];",
      "}",
      "",
      `export function create${name}(tags: string[] = []): ${name} {`,
      '  return { id: randomUUID(), status: "draft", createdAt: new Date(), tags };',
      "}",
      "",
      `export function describe${name}(${v}: ${name}): string {`,
      `  const label = ${v}.tags.length > 0 ? ${v}.tags.join(", ") : "untagged";`,
      `  return \`${name} \${${v}.id} (\${${v}.status}): \${label}\\n\`;`,
      "}",
      "",
      `export const is${name}Open = (${v}: ${name}): boolean => ${v}.status !== "archived";`,
      "",
    );
  }
  const kinds = entities.map((e) => `"${e.toLowerCase()}"`);
  lines.push(
    "export const RECORD_KINDS = [",
    `  ${kinds.slice(0, 4).join(", ")},`,
    `  ${kinds.slice(4, 8).join(", ")},`,
    `  ${kinds.slice(8).join(", ")},`,
    "] as const;",
    "",
    "export type RecordKind = (typeof RECORD_KINDS)[number];",
  );
  if (lines.length !== lineCount) throw new Error(`the generated file has ${lines.length} lines, not ${lineCount}`);
  return `${lines.join("\n")}\n`;
}

/** The same call straight over MCP: what the bridge sends, before Claude Code picks from it. */
async function callDirectly(bridge, name, args) {
  const client = new Client({ name: "bench-model-view", version: "0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(bridge.mcpUrl), { requestInit: { headers: { Authorization: `Bearer ${bridge.token}` } } }),
  );
  try {
    const result = await client.callTool({ name, arguments: args });
    const text = result.content
      .filter((b) => b.type === "text")
      .map((b) => b.text)
      .join("\n");
    return {
      text,
      structured: result.structuredContent === undefined ? undefined : JSON.stringify(result.structuredContent),
      instructions: client.getInstructions() ?? "",
    };
  } finally {
    await client.close();
  }
}

function shapeOf(text) {
  try {
    const value = JSON.parse(text);
    return Array.isArray(value) ? "JSON array" : `JSON ${typeof value}`;
  } catch {
    return "plain text";
  }
}

const count = (x) => x.toLocaleString("en-US");
const indent = (text, pad = "      | ") =>
  text
    .split("\n")
    .map((l) => pad + l)
    .join("\n");

/** The texts of a request the model reads besides the tool schemas: system prompt and messages. */
const promptTexts = (request) => [
  systemText(request),
  ...request.messages.flatMap((m) => (typeof m.content === "string" ? [m.content] : m.content.map((b) => b.text ?? ""))),
];

/** What the first request showed the model of the bridge's tools, before any ToolSearch. */
function firstRequestSummary(call, instructions) {
  const prefix = `mcp__${DEFAULT_SERVER_NAME}__`;
  const tools = call.firstTurn.tools ?? [];
  const ours = tools.filter((t) => t.name.startsWith(prefix));
  const upFront = ours.filter((t) => !t.defer_loading).map((t) => t.name);
  // Paragraphs naming our tools, the user's prompt aside: where a deferring CLI lists them.
  const paragraphs = promptTexts(call.firstTurn)
    .flatMap((t) => t.split("\n\n"))
    .filter((p) => p.includes(prefix) && !p.includes(call.prompt));
  const firstLine = instructions.split("\n")[0];
  const lines = [
    `    first request: ${tools.length} tools with schemas: ${tools.map((t) => t.name + (t.defer_loading ? " (defer_loading)" : "")).join(", ")}`,
    `    bridge tools among them: ${ours.length} (${upFront.length} callable up front)`,
    `    where else the prompt names bridge tools: ${paragraphs.length === 0 ? "nowhere" : ""}`,
    ...paragraphs.map((p) => indent(p.length > 1500 ? `${p.slice(0, 1500)} ...` : p)),
    `    server instructions in the prompt: ${firstLine && promptTexts(call.firstTurn).some((t) => t.includes(firstLine)) ? `yes ("${firstLine.slice(0, 100)}...")` : "no"}`,
  ];
  // The CLI says in its debug log why it did or did not defer (2.1.197 turns tool search off
  // for a base URL that is not first-party; TOOL_SEARCH=true shows what it does on the real API).
  const log = (call.run.debugLog ?? "")
    .split("\n")
    .filter((l) => /tool ?search/i.test(l))
    .map((l) => l.replace(/^\S+ /, "").slice(0, 240));
  lines.push(`    the CLI's debug log on tool search:`, ...[...new Set(log)].slice(0, 3).map((l) => indent(l)));
  return lines.join("\n");
}

/** One tool through Claude Code, printed against its payload (`payloadOf` the direct result). */
async function measure({ bridge, tool, args, claudeBin, payloadOf }) {
  const call = await callToolThroughClaude({ bridge, tool, args, claudeBin, toolSearch, timeoutMs: 180_000, debugLog: true });
  const sent = await callDirectly(bridge, tool, args);
  const payload = payloadOf(sent);
  const seen = call.toolResult;
  console.log(
    `  ${tool}: the model receives ${count(seen.length)} chars (${shapeOf(seen)}), ${(seen.length / payload).toFixed(2)}x the payload (${count(payload)} chars)`,
  );
  console.log(
    `    the bridge sent: text content ${count(sent.text.length)} chars (${shapeOf(sent.text)}); structuredContent ${sent.structured === undefined ? "none" : `${count(sent.structured.length)} chars`}`,
  );
  console.log(`    what the model saw, first ${PREVIEW_CHARS} chars:\n${indent(seen.slice(0, PREVIEW_CHARS))}`);
  return { call, sent };
}

/** The tree text alone: the plain text result, or the `tree` field of a structured one. */
function treeChars(sent) {
  if (shapeOf(sent.text) === "plain text") return sent.text.length;
  const value = JSON.parse(sent.structured ?? sent.text);
  return typeof value.tree === "string" ? value.tree.length : sent.text.length;
}

const fileBridge = await startBridgeProcess();
const repoBridge = await startBridgeProcess({ workspace: REPO_ROOT });
try {
  const source = typescriptSource();
  await mkdir(join(fileBridge.workspace, "src"), { recursive: true });
  await writeFile(join(fileBridge.workspace, FILE), source);
  console.log(`model-view: readFile of ${FILE} (200 lines, ${count(source.length)} chars) and getFileTree of ${REPO_ROOT}`);
  console.log(
    `tool search: ${toolSearch === undefined ? "as each CLI decides (ENABLE_TOOL_SEARCH unset)" : `ENABLE_TOOL_SEARCH=${toolSearch}`}\n`,
  );
  for (const claudeBin of bins) {
    const version = execFileSync(claudeBin, ["--version"], { encoding: "utf8" }).trim().split(" ")[0];
    console.log(`Claude Code ${version} (${claudeBin})`);
    const read = await measure({ bridge: fileBridge, tool: "readFile", args: { path: FILE }, claudeBin, payloadOf: () => source.length });
    await measure({ bridge: repoBridge, tool: "getFileTree", args: {}, claudeBin, payloadOf: treeChars });
    const { call } = read;
    console.log(
      `    ${qualifiedToolName(DEFAULT_SERVER_NAME, "readFile")}: deferred behind ToolSearch: ${call.deferred ? "yes" : "no"}; ToolSearch used: ${call.toolSearchUsed ? "yes" : "no"}`,
    );
    console.log(firstRequestSummary(call, read.sent.instructions));
    const body = JSON.stringify(call.firstTurn, null, 2);
    const file = join(outDir, `model-view-first-request-${version}.json`);
    await writeFile(file, body);
    if (claudeBin === bins.at(-1)) await writeFile(join(outDir, "model-view-first-request.json"), body);
    console.log(`    first request body (${count(body.length)} chars): ${file}\n`);
  }
} finally {
  await stopAllBridges();
}
