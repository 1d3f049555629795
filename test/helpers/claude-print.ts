// Runs the real Claude Code CLI once in print mode (`claude -p <prompt> --output-format json`)
// against a bridge and the fake model API, in a throwaway HOME, and hands back what the CLI
// printed together with every request it made to the "model". The bridge is configured only
// through --mcp-config + --strict-mcp-config, so nothing of the machine's setup leaks in.
import { execFile, spawn } from "node:child_process";
import { mkdtemp, readdir, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { delimiter, join, resolve } from "node:path";
import { claudeEnv } from "./claude-env.ts";
import { startFakeModelApi, type ModelScript, type RecordedRequest } from "./fake-model-api.ts";
import type { MessagesRequest } from "./model-api-types.ts";
import { CLAUDE_CLIS } from "./claude-clis.ts";
import { BRIDGE_BIN, REPO_ROOT, type BridgeProcess } from "./spawn-bridge.ts";

export const REPO_CLAUDE_BIN = join(REPO_ROOT, "node_modules", ".bin", "claude");

/**
 * Not "ide": Claude Code treats a server of that name as its IDE link and shows the model only
 * getDiagnostics and executeCode from it (reference/protocol.md A4); all our tools would vanish.
 */
export const DEFAULT_SERVER_NAME = "bridge";

const DEFAULT_TIMEOUT_MS = 120_000;
const KILL_GRACE_MS = 5_000;

/**
 * "http": Streamable HTTP with the bearer token; "shim": the stdio shim on the bridge's port;
 * "shim-spawn": the plain `shim` entry a user adds, with no bridge running: it starts its own.
 */
export type BridgeTransport = "http" | "shim" | "shim-spawn";

export interface ClaudePrintOptions {
  /** The bridge to reach; none with "shim-spawn", where `cwd` names the project. */
  bridge?: BridgeProcess;
  script: ModelScript;
  claudeBin?: string;
  transport?: BridgeTransport;
  serverName?: string;
  /** Tools that run without a permission prompt (print mode cannot ask, it denies). */
  allowedTools?: string[];
  /** ENABLE_TOOL_SEARCH for the CLI; undefined leaves the CLI's own choice. */
  toolSearch?: boolean;
  /** The CLI's working directory (default: the bridge's workspace, as a user would run it); required without a bridge. */
  cwd?: string;
  env?: Record<string, string>;
  timeoutMs?: number;
  /** The --mcp-config entry to use instead of the one `transport` builds (a recording wrapper). */
  serverEntry?: Record<string, unknown>;
  /** Keep the CLI's --debug-file log (it names each API request's purpose). */
  debugLog?: boolean;
}

/** The JSON object `--output-format json` prints at the end of a print-mode run. */
export interface CliResult {
  type: "result";
  subtype: string;
  is_error: boolean;
  result?: string;
  num_turns?: number;
}

export interface ClaudePrintRun {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  stdout: string;
  stderr: string;
  /** The parsed result object; undefined when stdout was not one. */
  result: CliResult | undefined;
  requests: RecordedRequest[];
  turns: MessagesRequest[];
  scriptErrors: Error[];
  debugLog: string | undefined;
  /** "shim-spawn": the workspaces of the bridges the shim started (each stopped after the run). */
  spawnedBridges: string[];
}

export function mcpServerEntry(bridge: BridgeProcess | undefined, transport: BridgeTransport): Record<string, unknown> {
  if (transport === "shim-spawn") return { type: "stdio", command: process.execPath, args: [BRIDGE_BIN, "shim"] };
  if (bridge === undefined) throw new Error(`transport ${transport} needs a bridge`);
  if (transport === "http") return { type: "http", url: bridge.mcpUrl, headers: { Authorization: `Bearer ${bridge.token}` } };
  return { type: "stdio", command: process.execPath, args: [BRIDGE_BIN, "shim", "--port", String(bridge.port), "--token", bridge.token] };
}

/**
 * CLI paths from CLAUDE_BINS (separated like PATH), else both releases the repository pins
 * (test/helpers/claude-clis.ts). Made absolute, since the CLI runs in another directory.
 */
export function claudeBinsFromEnv(value = process.env.CLAUDE_BINS): string[] {
  const bins = (value ?? "")
    .split(delimiter)
    .filter(Boolean)
    .map((bin) => resolve(bin));
  return bins.length > 0 ? bins : CLAUDE_CLIS.map((cli) => cli.bin);
}

function parseResult(stdout: string): CliResult | undefined {
  // json prints one object; stream-json prints one per line and the result comes last.
  const lines = stdout.trim().split("\n").reverse();
  for (const line of lines) {
    try {
      const value = JSON.parse(line) as { type?: unknown };
      if (value.type === "result") return value as CliResult;
    } catch {
      // Not a JSON line; keep looking.
    }
  }
  return undefined;
}

export async function runClaudePrint(prompt: string, opts: ClaudePrintOptions): Promise<ClaudePrintRun> {
  const home = await realpath(await mkdtemp(join(tmpdir(), "claude-print-home-")));
  const api = await startFakeModelApi(opts.script);
  try {
    const configFile = join(home, "mcp-config.json");
    const serverName = opts.serverName ?? DEFAULT_SERVER_NAME;
    await writeFile(
      configFile,
      JSON.stringify({ mcpServers: { [serverName]: opts.serverEntry ?? mcpServerEntry(opts.bridge, opts.transport ?? "http") } }),
    );
    const debugFile = join(home, "claude-debug.log");
    const args = ["-p", prompt, "--output-format", "json", "--mcp-config", configFile, "--strict-mcp-config"];
    if (opts.allowedTools?.length) args.push("--allowedTools", opts.allowedTools.join(","));
    if (opts.debugLog) args.push("--debug-file", debugFile);
    const env: NodeJS.ProcessEnv = {
      ...claudeEnv(home),
      ANTHROPIC_BASE_URL: api.url,
      ANTHROPIC_API_KEY: "test-key",
      // Print mode connects --mcp-config servers in the background; the first turn could go out
      // before tools/list answered. Blocking makes the first request see the bridge's tools.
      MCP_CONNECTION_NONBLOCKING: "0",
      ...(opts.toolSearch === undefined ? {} : { ENABLE_TOOL_SEARCH: String(opts.toolSearch) }),
      ...opts.env,
    };
    const cwd = opts.cwd ?? opts.bridge?.workspace;
    if (cwd === undefined) throw new Error("runClaudePrint needs a bridge or a cwd");
    const run = await spawnCli(opts.claudeBin ?? REPO_CLAUDE_BIN, args, { cwd, env, timeoutMs: opts.timeoutMs ?? DEFAULT_TIMEOUT_MS });
    return {
      ...run,
      spawnedBridges: await stopSpawnedBridges(join(home, ".claude")),
      result: parseResult(run.stdout),
      requests: api.requests,
      turns: api.turns(),
      scriptErrors: api.scriptErrors,
      debugLog: opts.debugLog ? await readFile(debugFile, "utf8").catch(() => undefined) : undefined,
    };
  } finally {
    await api.close();
    await rm(home, { recursive: true, force: true });
  }
}

/** Stops every bridge with a lock under `configDir` (a shim started it in this throwaway HOME). */
async function stopSpawnedBridges(configDir: string): Promise<string[]> {
  const dir = join(configDir, "ide");
  const workspaces: string[] = [];
  for (const name of (await readdir(dir).catch(() => [])).filter((n) => /^\d+\.lock$/.test(n))) {
    const lock = JSON.parse(await readFile(join(dir, name), "utf8").catch(() => "{}")) as { workspace?: string };
    if (lock.workspace !== undefined) workspaces.push(lock.workspace);
    await new Promise<void>((resolve) =>
      execFile(
        process.execPath,
        [BRIDGE_BIN, "stop", "--port", name.replace(".lock", "")],
        { env: { ...process.env, CLAUDE_CONFIG_DIR: configDir } },
        () => resolve(),
      ),
    );
  }
  return workspaces;
}

type CliExit = Pick<ClaudePrintRun, "exitCode" | "signal" | "timedOut" | "stdout" | "stderr">;

function spawnCli(bin: string, args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number }): Promise<CliExit> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { cwd: opts.cwd, env: opts.env, stdio: ["ignore", "pipe", "pipe"] });
    const killOnExit = (): void => void child.kill("SIGKILL");
    process.once("exit", killOnExit);
    let stdout = "";
    let stderr = "";
    let timedOut = false;
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    let killer: NodeJS.Timeout | undefined;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill("SIGTERM");
      killer = setTimeout(() => child.kill("SIGKILL"), KILL_GRACE_MS);
    }, opts.timeoutMs);
    child.once("error", (err) => {
      clearTimeout(timer);
      process.off("exit", killOnExit);
      reject(new Error(`could not start ${bin}: ${err.message}`));
    });
    child.once("close", (exitCode, signal) => {
      clearTimeout(timer);
      clearTimeout(killer);
      process.off("exit", killOnExit);
      resolve({ exitCode, signal, timedOut, stdout, stderr });
    });
  });
}

/** Everything needed to see why a run went wrong, for assertion messages. */
export function describeRun(run: ClaudePrintRun): string {
  const requests = run.requests.map((r) => `  ${r.method} ${r.path} -> ${r.status} (${r.kind}${r.turn ? ` ${r.turn}` : ""})`).join("\n");
  return [
    `claude exited with code ${run.exitCode}, signal ${run.signal}${run.timedOut ? " (timed out, killed)" : ""}`,
    `requests to the fake model API:\n${requests || "  none"}`,
    ...run.scriptErrors.map((e) => `script error: ${e.message}`),
    `--- claude stderr ---\n${run.stderr.slice(-4000)}`,
    `--- claude stdout ---\n${run.stdout.slice(-4000)}`,
  ].join("\n");
}
