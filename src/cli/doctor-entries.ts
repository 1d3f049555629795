// doctor's check of one Claude Code config entry, done the way Claude Code does it, so a ✓ means
// it would connect: a stdio entry that runs the shim is started with its own command, args and env
// in this directory and asked to initialize and list its tools (the shim starts or finds the
// bridge, and its error says why when it cannot); an HTTP entry gets an initialize POSTed with its
// own headers; a WebSocket entry's bridge is reached on its port with the entry's token (the
// WebSocket and /health take the same one). `${VAR}` and `${VAR:-default}` are expanded first, as
// Claude Code expands them in .mcp.json. A token is never printed.
import { errorMessage } from "../errors.ts";
import type { Runtime } from "../ports/runtime.ts";
import { IDE_AUTH_HEADER } from "../wire.ts";
import { type Check, probeDeadline } from "./doctor-report.ts";
import { HOME_VARIABLE } from "./shim-entry.ts";

type Json = Record<string, unknown>;

/** The shim may start a bridge first (up to 20 s, src: shim/options.ts); Claude Code waits 30 s. */
const STDIO_TIMEOUT_MS = 30_000;
const HTTP_TIMEOUT_MS = 5_000;
const EXIT_WAIT_MS = 3_000;
const MESSAGE_CHARS = 600;

export interface ConfigEntry {
  where: string;
  name: string;
  entry: Json;
}

/** The entry as Claude Code would run it: variables expanded, and the ones it lacks. */
export function expandEntry(entry: Json, env: Readonly<Record<string, string | undefined>>): { entry: Json; missing: string[] } {
  const missing = new Set<string>();
  const expand = (text: string) =>
    text.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g, (_all, name: string, fallback: string | undefined) => {
      const value = env[name];
      if (value !== undefined && value !== "") return value;
      if (fallback !== undefined) return fallback;
      missing.add(name);
      return "";
    });
  const out: Json = { ...entry };
  if (typeof entry.command === "string") out.command = expand(entry.command);
  if (typeof entry.url === "string") out.url = expand(entry.url);
  if (Array.isArray(entry.args)) out.args = entry.args.map((a) => (typeof a === "string" ? expand(a) : a));
  for (const key of ["env", "headers"] as const) {
    const map = entry[key];
    if (isObject(map)) out[key] = Object.fromEntries(Object.entries(map).map(([k, v]) => [k, typeof v === "string" ? expand(v) : v]));
  }
  return { entry: out, missing: [...missing] };
}

/** A variable the entry needs is unset: Claude Code warns and starts it without. */
export function missingVariablesCheck(
  what: string,
  missing: readonly string[],
  opts: { cwd: string; checkout: string | undefined },
): Check {
  const home = missing.includes(HOME_VARIABLE);
  return {
    area: "claude config",
    status: "fail",
    summary: `${what}: needs the environment variable${missing.length > 1 ? "s" : ""} ${missing.join(", ")}, unset here (Claude Code warns "Missing environment variables")`,
    fix: home
      ? `export ${HOME_VARIABLE}=${opts.checkout ?? "/path/to/your/claude-ide-bridge/checkout"} (in your shell profile), then start Claude Code again`
      : `set ${missing.join(", ")} before starting Claude Code in ${opts.cwd}`,
  };
}

/** What the HTTP and WebSocket probes are told: the entry's description for the summary, and the caller's abort. */
export interface ProbeOptions {
  what: string;
  cli: string;
  signal?: AbortSignal | undefined;
}

/** Starts the stdio entry as Claude Code would and asks it to initialize and list its tools. */
export async function probeStdioEntry(
  runtime: Runtime,
  e: ConfigEntry,
  opts: { cwd: string; what: string; cli: string; signal?: AbortSignal | undefined },
): Promise<Check> {
  const command = String(e.entry.command);
  const args = Array.isArray(e.entry.args) ? e.entry.args.map(String) : [];
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(runtime.env)) if (v !== undefined) env[k] = v;
  if (isObject(e.entry.env)) for (const [k, v] of Object.entries(e.entry.env)) env[k] = String(v);
  // Claude Code names the directory it was started in; the shim roots its bridge around it.
  env.CLAUDE_PROJECT_DIR = opts.cwd;
  const child = runtime.spawn(command, args, { cwd: opts.cwd, env, stdin: "pipe" });
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), STDIO_TIMEOUT_MS);
  // A cancelled bridgeDoctor call ends the wait at once; the finally below stops the child.
  const stop = () => deadline.abort();
  opts.signal?.addEventListener("abort", stop, { once: true });
  const stderr = collectText(child.stderr);
  const lines = readLines(child.stdout);
  const writer = child.stdin?.getWriter();
  const send = (message: Json) => writer?.write(new TextEncoder().encode(`${JSON.stringify(message)}\n`)).catch(() => {});
  try {
    await send({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "claude-ide-bridge-doctor", version: "1" } },
    });
    const init = await answerTo(1, lines, { signal: deadline.signal, exited: child.exited });
    if (init.kind !== "answer") return stdioFailure(opts.what, init, await stderr.tail());
    if (init.error !== undefined) {
      return {
        area: "claude config",
        status: "fail",
        summary: `${opts.what}: Claude Code would fail to connect: ${clip(init.error)}`,
        fix: "do what the message says, then run doctor again (or claude mcp list)",
      };
    }
    await send({ jsonrpc: "2.0", method: "notifications/initialized" });
    await send({ jsonrpc: "2.0", id: 2, method: "tools/list", params: {} });
    const list = await answerTo(2, lines, { signal: deadline.signal, exited: child.exited });
    const server = serverName(init.result);
    if (list.kind !== "answer" || list.error !== undefined) {
      const why = list.kind === "answer" ? list.error : describeEnd(list);
      return {
        area: "claude config",
        status: "fail",
        summary: `${opts.what}: initialize answered (${server}) but tools/list did not: ${clip(why ?? "")}`,
        fix: `restart the bridge (${opts.cli} stop), then run doctor again`,
      };
    }
    const tools = isObject(list.result) && Array.isArray(list.result.tools) ? list.result.tools.length : 0;
    return { area: "claude config", status: "ok", summary: `${opts.what}: connects (${server}, ${tools} tools)` };
  } catch (err) {
    return { area: "claude config", status: "fail", summary: `${opts.what}: could not be started: ${errorMessage(err)}` };
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener("abort", stop);
    if (opts.signal?.aborted) child.kill("SIGKILL");
    // stdin's end is the shim's signal to go; one that does not is stopped.
    await writer?.close().catch(() => {});
    if ((await settleWithin(child.exited, EXIT_WAIT_MS)) === undefined) child.kill("SIGKILL");
  }
}

/** An HTTP entry: initialize POSTed with the entry's own headers; its session is closed after. */
export async function probeHttpEntry(e: ConfigEntry, opts: ProbeOptions): Promise<Check> {
  const url = String(e.entry.url);
  const headers: Record<string, string> = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    ...stringMap(e.entry.headers),
  };
  const body = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "claude-ide-bridge-doctor", version: "1" } },
  });
  let response: Response;
  try {
    response = await fetch(url, { method: "POST", headers, body, signal: probeDeadline(HTTP_TIMEOUT_MS, opts.signal) });
  } catch (err) {
    return unreachable(url, err, opts);
  }
  const text = await response.text().catch(() => "");
  if (response.status === 401) return refusedToken(e, url, opts);
  if (!response.ok) {
    return {
      area: "claude config",
      status: "fail",
      summary: `${opts.what}: initialize answered HTTP ${response.status} ${clip(text, 200)}`,
      fix: `check the URL (a bridge serves MCP at /mcp), or use the shim entry: ${opts.cli} init`,
    };
  }
  const session = response.headers.get("mcp-session-id");
  if (session !== null) {
    await fetch(url, { method: "DELETE", headers: { ...stringMap(e.entry.headers), "mcp-session-id": session } })
      .then((r) => r.body?.cancel())
      .catch(() => {});
  }
  const error = /"error":\{[^}]*"message":"((?:[^"\\]|\\.)*)"/.exec(text)?.[1];
  if (error !== undefined) return { area: "claude config", status: "fail", summary: `${opts.what}: initialize refused: ${clip(error)}` };
  return { area: "claude config", status: "ok", summary: `${opts.what}: initialize answered with this entry's headers` };
}

/** A WebSocket entry: the bridge on its port, and its token (the WebSocket's and /health's are one). */
export async function probeWsEntry(e: ConfigEntry, opts: ProbeOptions): Promise<Check> {
  const url = new URL(String(e.entry.url));
  const base = `http://${url.host}`;
  const headers = lowerKeys(stringMap(e.entry.headers));
  const token = headers[IDE_AUTH_HEADER];
  if (token === undefined) {
    return {
      area: "claude config",
      status: "fail",
      summary: `${opts.what}: no ${IDE_AUTH_HEADER} header, so the bridge refuses the WebSocket (HTTP 401)`,
      fix: `add "headers": {"${IDE_AUTH_HEADER}": "<token>"} (${opts.cli} print-token), or use the shim entry: ${opts.cli} init`,
    };
  }
  try {
    const ping = await fetch(`${base}/ping`, { signal: probeDeadline(HTTP_TIMEOUT_MS, opts.signal) });
    const body: unknown = await ping.json().catch(() => undefined);
    if (!ping.ok || !isObject(body) || body.ok !== true) {
      return {
        area: "claude config",
        status: "fail",
        summary: `${opts.what}: port ${url.port} answers, but not as a claude-ide-bridge (/ping: HTTP ${ping.status})`,
        fix: `point the entry at the bridge's port (${opts.cli} status), or use the shim entry: ${opts.cli} init`,
      };
    }
    const health = await fetch(`${base}/health`, {
      headers: { authorization: `Bearer ${token}` },
      signal: probeDeadline(HTTP_TIMEOUT_MS, opts.signal),
    });
    await health.body?.cancel();
    if (health.status === 401) return refusedToken(e, String(e.entry.url), opts);
    if (!health.ok) return { area: "claude config", status: "fail", summary: `${opts.what}: the bridge answers HTTP ${health.status}` };
  } catch (err) {
    return unreachable(String(e.entry.url), err, opts);
  }
  return { area: "claude config", status: "ok", summary: `${opts.what}: the bridge on port ${url.port} accepts this entry's token` };
}

function refusedToken(e: ConfigEntry, url: string, opts: { what: string; cli: string }): Check {
  const port = /:(\d+)/.exec(url.replace(/^[a-z]+:\/\//, ""))?.[1] ?? "<port>";
  return {
    area: "claude config",
    status: "fail",
    summary: `${opts.what}: the bridge refuses this entry's token (HTTP 401); it restarted with a new one, or the entry names another bridge`,
    fix:
      `put the current token in the entry (${opts.cli} print-token --port ${port}), e.g. claude mcp remove ${e.name}, then add it again; ` +
      `a bridge started with a fixed token (env CLAUDE_IDE_BRIDGE_TOKEN) keeps it across restarts, and the shim entry (${opts.cli} init) needs none`,
  };
}

function unreachable(url: string, err: unknown, opts: { what: string; cli: string }): Check {
  return {
    area: "claude config",
    status: "fail",
    summary: `${opts.what}: nothing answers at ${url} (${fetchFailure(err)}): no bridge runs on that port`,
    fix: `start the bridge with that --port (and its token), or use the shim entry, which finds or starts the bridge: ${opts.cli} init`,
  };
}

/** fetch says only "fetch failed"; the cause says why (ECONNREFUSED, a timeout). */
function fetchFailure(err: unknown): string {
  const cause = err instanceof Error && isObject(err.cause) ? err.cause : undefined;
  if (cause !== undefined && typeof cause.code === "string") return cause.code;
  return errorMessage(err);
}

type Awaited_ = { kind: "answer"; result: unknown; error: string | undefined } | { kind: "exited"; code: number } | { kind: "timeout" };

function stdioFailure(what: string, end: Exclude<Awaited_, { kind: "answer" }>, stderr: string): Check {
  const said = stderr
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "")
    .slice(-3)
    .join(" | ");
  return {
    area: "claude config",
    status: "fail",
    summary: `${what}: ${describeEnd(end)}${said ? `: ${clip(said)}` : ""}; Claude Code would show only "Failed to connect"`,
    fix: "run the entry's command in a terminal to see why",
  };
}

function describeEnd(end: Exclude<Awaited_, { kind: "answer" }>): string {
  return end.kind === "exited"
    ? `exited with code ${end.code} without answering initialize`
    : `no answer to initialize within ${STDIO_TIMEOUT_MS / 1000} s`;
}

/** The answer to request `id` among the lines, or how the wait ended. */
async function answerTo(
  id: number,
  lines: AsyncIterator<string>,
  opts: { signal: AbortSignal; exited: Promise<number> },
): Promise<Awaited_> {
  const aborted = new Promise<Awaited_>((resolve) => {
    if (opts.signal.aborted) resolve({ kind: "timeout" });
    opts.signal.addEventListener("abort", () => resolve({ kind: "timeout" }), { once: true });
  });
  const next = async (): Promise<Awaited_> => {
    for (;;) {
      const line = await lines.next();
      if (line.done) return { kind: "exited", code: await opts.exited.catch(() => -1) };
      let value: unknown;
      try {
        value = JSON.parse(line.value);
      } catch {
        continue;
      }
      if (!isObject(value) || value.id !== id) continue;
      const error = isObject(value.error) ? String(value.error.message ?? JSON.stringify(value.error)) : undefined;
      return { kind: "answer", result: value.result, error };
    }
  };
  return Promise.race([next(), aborted]);
}

function readLines(stream: ReadableStream<Uint8Array>): AsyncIterator<string> {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let buffered = "";
  const ready: string[] = [];
  return {
    async next(): Promise<IteratorResult<string>> {
      for (;;) {
        const line = ready.shift();
        if (line !== undefined) return { done: false, value: line };
        const chunk = await reader.read();
        if (chunk.done) return { done: true, value: undefined };
        buffered += decoder.decode(chunk.value, { stream: true });
        const parts = buffered.split("\n");
        buffered = parts.pop() ?? "";
        ready.push(...parts);
      }
    },
  };
}

/** The last 8 KB a stream carried, once asked for (the stream is read all along, so the child never blocks on it). */
function collectText(stream: ReadableStream<Uint8Array>): { tail(): Promise<string> } {
  let text = "";
  const done = (async () => {
    const reader = stream.getReader();
    const decoder = new TextDecoder();
    for (;;) {
      const chunk = await reader.read().catch(() => ({ done: true as const, value: undefined }));
      if (chunk.done) return;
      text = (text + decoder.decode(chunk.value, { stream: true })).slice(-8192);
    }
  })();
  return {
    tail: async () => {
      await settleWithin(done, 500);
      return text;
    },
  };
}

async function settleWithin<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<undefined>((resolve) => (timer = setTimeout(resolve, ms, undefined)));
  try {
    return await Promise.race([promise.catch(() => undefined), late]);
  } finally {
    clearTimeout(timer);
  }
}

function serverName(result: unknown): string {
  const info = isObject(result) && isObject(result.serverInfo) ? result.serverInfo : undefined;
  return info === undefined ? "unnamed server" : `${String(info.name ?? "?")} ${String(info.version ?? "")}`.trim();
}

function stringMap(value: unknown): Record<string, string> {
  if (!isObject(value)) return {};
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, String(v)]));
}

function lowerKeys(map: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(map).map(([k, v]) => [k.toLowerCase(), v]));
}

function clip(text: string, max = MESSAGE_CHARS): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
