// doctor's check of Claude Code's side: does a config it reads for this directory run the shim
// (or reach a running bridge over HTTP/WebSocket)? Project scope is `.mcp.json` at the project
// root; user and local scopes live in `~/.claude.json` (under `$CLAUDE_CONFIG_DIR` when set):
// `mcpServers`, and `projects["<dir>"].mcpServers` (protocol.md D1). An entry must not be named
// `ide` (Claude Code then hides all but two tools, protocol.md A4) and its command must exist.
import { errorMessage, fsErrorCode } from "../errors.ts";
import type { Runtime } from "../ports/runtime.ts";
import { isAbsolute, join } from "../lib/paths/posix-path.ts";
import type { BridgeLock } from "./bridge-locks.ts";
import type { Check } from "./doctor-report.ts";
import { PACKAGE_NAME } from "./launcher.ts";

type Json = Record<string, unknown>;

interface Entry {
  where: string;
  name: string;
  entry: Json;
}

export async function claudeConfigChecks(
  runtime: Runtime,
  opts: { cwd: string; root: string; shim: string; locks: readonly BridgeLock[] },
): Promise<Check[]> {
  const checks: Check[] = [];
  const entries: Entry[] = [];
  for (const dir of new Set([opts.root, opts.cwd])) {
    const path = join(dir, ".mcp.json");
    const doc = await readJson(runtime, path, checks);
    entries.push(...serversOf(doc?.mcpServers, path));
  }
  const userPath = join(runtime.env.CLAUDE_CONFIG_DIR || runtime.paths.home, ".claude.json");
  const user = await readJson(runtime, userPath, checks);
  entries.push(...serversOf(user?.mcpServers, `${userPath} (user scope)`));
  const projects = isObject(user?.projects) ? user.projects : {};
  for (const dir of new Set([opts.cwd, opts.root]))
    entries.push(...serversOf(isObject(projects[dir]) ? projects[dir].mcpServers : undefined, `${userPath} (local scope, ${dir})`));

  const bridgePorts = new Set(opts.locks.filter((l) => l.lock.isBridge && l.problem === undefined).map((l) => String(l.port)));
  const ours = entries.filter((e) => runsShim(e.entry) || reachesBridge(e.entry, bridgePorts));
  for (const e of ours) checks.push(await checkEntry(runtime, e, opts.shim));
  if (ours.length === 0) {
    checks.push({
      area: "claude config",
      status: "fail",
      summary: `no Claude Code config for ${opts.cwd} runs the shim (looked in .mcp.json and ${userPath})`,
      fix: `claude mcp add ${PACKAGE_NAME} -- ${opts.shim}   (or claude-ide-bridge init, for the project's .mcp.json)`,
    });
  }
  return checks;
}

async function checkEntry(runtime: Runtime, e: Entry, shim: string): Promise<Check> {
  const line =
    typeof e.entry.url === "string"
      ? e.entry.url
      : [e.entry.command, ...(Array.isArray(e.entry.args) ? e.entry.args : [])].map(String).join(" ");
  const what = `${e.where}: mcpServers.${e.name} → ${line}`;
  if (e.name === "ide") {
    return {
      area: "claude config",
      status: "fail",
      summary: `${what}: the name "ide" is Claude Code's IDE link, which shows the model only getDiagnostics and executeCode`,
      fix: `claude mcp remove ide, then claude mcp add ${PACKAGE_NAME} -- ${shim}`,
    };
  }
  const missing = typeof e.entry.url === "string" ? undefined : await missingExecutable(runtime, e.entry);
  if (missing !== undefined) {
    return {
      area: "claude config",
      status: "fail",
      summary: `${what}: ${missing} not found, so Claude Code cannot start it`,
      fix: `claude-ide-bridge init (or claude mcp add ${PACKAGE_NAME} -- ${shim}) writes a command that starts here`,
    };
  }
  return { area: "claude config", status: "ok", summary: what };
}

/** The command, or a checkout's script after node/bun/deno, that does not exist. */
async function missingExecutable(runtime: Runtime, entry: Json): Promise<string | undefined> {
  const command = typeof entry.command === "string" ? entry.command : "";
  const found = isAbsolute(command) ? await exists(runtime, command) : (await runtime.which(command)) !== undefined;
  if (!found) return `command "${command}"`;
  const script = Array.isArray(entry.args)
    ? entry.args.find((a): a is string => typeof a === "string" && a.endsWith(".js") && isAbsolute(a))
    : undefined;
  if (script !== undefined && !(await exists(runtime, script))) return `script ${script}`;
  return undefined;
}

function runsShim(entry: Json): boolean {
  const words = [entry.command, ...(Array.isArray(entry.args) ? entry.args : [])].map(String);
  return words.includes("shim") && words.some((w) => w.includes(PACKAGE_NAME));
}

/** An HTTP or WebSocket entry naming the port of a running bridge. */
function reachesBridge(entry: Json, ports: ReadonlySet<string>): boolean {
  if (typeof entry.url !== "string") return false;
  const port = /^(?:https?|wss?):\/\/(?:127\.0\.0\.1|localhost|\[::1\]):(\d+)/.exec(entry.url)?.[1];
  return port !== undefined && ports.has(port);
}

function serversOf(servers: unknown, where: string): Entry[] {
  if (!isObject(servers)) return [];
  return Object.entries(servers).flatMap(([name, entry]) => (isObject(entry) ? [{ where, name, entry }] : []));
}

async function readJson(runtime: Runtime, path: string, checks: Check[]): Promise<Json | undefined> {
  let text: string;
  try {
    text = await runtime.fs.readTextFile(path);
  } catch (err) {
    if (fsErrorCode(err) !== "ENOENT")
      checks.push({ area: "claude config", status: "warn", summary: `cannot read ${path}: ${errorMessage(err)}` });
    return undefined;
  }
  try {
    const doc: unknown = JSON.parse(text);
    return isObject(doc) ? doc : undefined;
  } catch (err) {
    checks.push({
      area: "claude config",
      status: "fail",
      summary: `${path} is not valid JSON (${errorMessage(err)}); Claude Code ignores it`,
      fix: `fix or remove ${path}`,
    });
    return undefined;
  }
}

async function exists(runtime: Runtime, path: string): Promise<boolean> {
  return (await runtime.fs.stat(path).catch(() => undefined)) !== undefined;
}

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
