// doctor's check of Claude Code's side: does a config it reads for this directory run the shim
// (or reach a bridge over HTTP/WebSocket), and would each such entry connect? Project scope is
// `.mcp.json` at the project root; user and local scopes live in `~/.claude.json` (under
// `$CLAUDE_CONFIG_DIR` when set): `mcpServers`, and `projects["<dir>"].mcpServers` (protocol.md
// D1). An entry must not be named `ide` (Claude Code then hides all but two tools, protocol.md
// A4), its command must exist, and then it is tried for real (doctor-entries.ts): a ✓ is a
// connection made with the entry's own command, headers and token, never just a well-formed line.
import { errorMessage, fsErrorCode } from "../errors.ts";
import type { Runtime } from "../ports/runtime.ts";
import { isAbsolute, join } from "../lib/paths/posix-path.ts";
import { IDE_AUTH_HEADER } from "../wire.ts";
import type { BridgeLock } from "./bridge-locks.ts";
import type { Check } from "./doctor-report.ts";
import { expandEntry, missingVariablesCheck, probeHttpEntry, probeStdioEntry, probeWsEntry, type ConfigEntry } from "./doctor-entries.ts";
import { PACKAGE_NAME } from "./launcher.ts";

type Json = Record<string, unknown>;
type Entry = ConfigEntry;

export async function claudeConfigChecks(
  runtime: Runtime,
  opts: {
    cwd: string;
    root: string;
    shim: string;
    cli: string;
    checkout: string | undefined;
    locks: readonly BridgeLock[];
    signal?: AbortSignal;
  },
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

  const bridgePorts = new Set(opts.locks.filter((l) => l.lock.isBridge).map((l) => String(l.port)));
  const ours = entries.filter((e) => runsShim(e.entry) || reachesBridge(e.entry, bridgePorts));
  checks.push(...(await Promise.all(ours.map((e) => checkEntry(runtime, e, opts)))));
  if (ours.length === 0) {
    checks.push({
      area: "claude config",
      status: "fail",
      summary: `no Claude Code config for ${opts.cwd} runs the shim (looked in .mcp.json and ${userPath})`,
      fix: `claude mcp add ${PACKAGE_NAME} -- ${opts.shim}   (or ${opts.cli} init, for the project's .mcp.json)`,
    });
  }
  return checks;
}

async function checkEntry(
  runtime: Runtime,
  e: Entry,
  opts: { shim: string; cli: string; cwd: string; checkout: string | undefined; signal?: AbortSignal },
): Promise<Check> {
  const { shim } = opts;
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
  const expanded = expandEntry(e.entry, runtime.env);
  if (expanded.missing.length > 0) return missingVariablesCheck(what, expanded.missing, opts);
  const ready = { ...e, entry: expanded.entry };
  if (typeof ready.entry.url === "string") {
    const probe = { what, cli: opts.cli, signal: opts.signal };
    return isWebSocket(ready.entry) ? probeWsEntry(ready, probe) : probeHttpEntry(ready, probe);
  }
  const missing = await missingExecutable(runtime, ready.entry);
  if (missing !== undefined) {
    return {
      area: "claude config",
      status: "fail",
      summary: `${what}: ${missing} not found, so Claude Code cannot start it`,
      fix: `${opts.cli} init (or claude mcp add ${PACKAGE_NAME} -- ${shim}) writes a command that starts here`,
    };
  }
  return probeStdioEntry(runtime, ready, { cwd: opts.cwd, what, cli: opts.cli, signal: opts.signal });
}

function isWebSocket(entry: Json): boolean {
  return entry.type === "ws" || (typeof entry.url === "string" && /^wss?:/.test(entry.url));
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

/**
 * An HTTP or WebSocket entry for a bridge: on loopback, and naming a port a bridge's lock names
 * (live or stale), the bridge's MCP path, or carrying the IDE token header. Such an entry is tried
 * even when nothing answers there now: Claude Code would fail on it just the same.
 */
function reachesBridge(entry: Json, ports: ReadonlySet<string>): boolean {
  if (typeof entry.url !== "string") return false;
  const match = /^(https?|wss?):\/\/(?:127\.0\.0\.1|localhost|\[::1\]):(\d+)(\/[^?#]*)?/.exec(entry.url);
  if (match === null) return false;
  const [, scheme, port, path] = match;
  if (port !== undefined && ports.has(port)) return true;
  const headers = isObject(entry.headers) ? Object.keys(entry.headers).map((k) => k.toLowerCase()) : [];
  if (scheme?.startsWith("ws") === true) return headers.includes(IDE_AUTH_HEADER);
  return path === "/mcp";
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
