// `claude-ide-bridge status [--port N] [--json]`: each bridge's lock file, whether its process is
// alive (src/lock/lock-liveness.ts), what its /health says, and which lock the shim would pick in
// this directory. Exit 0 when at least one bridge (or the one asked for) answers healthy, 1
// otherwise. Tokens are never printed.
import { errorMessage } from "../errors.ts";
import { lockDir } from "../lock/lock-file.ts";
import { describeLanguageServers } from "../lsp/lsp-health.ts";
import type { LockProblem } from "../lock/lock-selection.ts";
import { chooseLock, listLocks, PROBLEMS, realDirectory, type BridgeLock } from "./bridge-locks.ts";
import type { CommandMain } from "./command-io.ts";
import { parseFlags, portFlag } from "./flags.ts";

const STATUS_HELP = `Usage: claude-ide-bridge status [--port <n>] [--json]

Lists running bridges from the lock files in \${CLAUDE_CONFIG_DIR:-~/.claude}/ide/: port, pid,
workspace, and /health, and which one the shim and print-token would use in this directory.
Exits 0 when a bridge (or the one on --port) is healthy, 1 otherwise.
`;

const HEALTH_TIMEOUT_MS = 2_000;

interface BridgeStatus {
  port: number;
  pid: number | undefined;
  alive: boolean;
  /** Why the shim and print-token pass this lock over (src/lock/lock-selection.ts), or null. */
  problem: LockProblem | null;
  ideName: string | undefined;
  workspace: string | undefined;
  workspaceFolders: string[];
  lockPath: string;
  startedAt: number | undefined;
  health: Record<string, unknown> | undefined;
  healthError: string | undefined;
}

export const status: CommandMain = async (ctx, args) => {
  const flags = parseFlags(args, { values: ["--port"], booleans: ["--json", "--help", "-h"] });
  if (flags.booleans.has("--help") || flags.booleans.has("-h")) {
    ctx.out(STATUS_HELP);
    return 0;
  }
  const port = portFlag(flags);
  const dir = lockDir(ctx.runtime);
  const all = await listLocks(ctx.runtime);
  const cwd = await realDirectory(ctx.runtime, ctx.runtime.paths.cwd);
  const chosenPort = (await chooseLock(ctx.runtime, all, { cwd }))?.port ?? null;
  const locks = all.filter((l) => (port === undefined ? l.lock.isBridge : l.port === port));
  const bridges = await Promise.all(locks.map((lock) => probe(lock)));
  const healthy = bridges.some((b) => b.health?.status === "ok");

  if (flags.booleans.has("--json")) {
    ctx.out(`${JSON.stringify({ lockDir: dir, healthy, cwd, chosenPort, bridges }, null, 2)}\n`);
    return healthy ? 0 : 1;
  }
  if (bridges.length === 0) {
    ctx.out(port === undefined ? `No bridge is running (no bridge lock files in ${dir}).\n` : `No lock file for port ${port} in ${dir}.\n`);
    return 1;
  }
  for (const b of bridges) ctx.out(describe(b));
  ctx.out(
    chosenPort === null ? `In ${cwd} the shim finds no usable lock.\n` : `In ${cwd} the shim and print-token use port ${chosenPort}.\n`,
  );
  return healthy ? 0 : 1;
};

async function probe(lock: BridgeLock): Promise<BridgeStatus> {
  const { pid, ideName, workspace, workspaceFolders, startedAt, authToken } = lock.lock;
  const result: BridgeStatus = {
    port: lock.port,
    pid,
    alive: lock.alive,
    problem: lock.problem ?? null,
    ideName,
    workspace,
    workspaceFolders,
    lockPath: lock.path,
    startedAt,
    health: undefined,
    healthError: undefined,
  };
  if (lock.problem === "dead") {
    result.healthError = PROBLEMS.dead;
    return result;
  }
  try {
    const headers: Record<string, string> = authToken === undefined ? {} : { authorization: `Bearer ${authToken}` };
    const response = await fetch(`http://127.0.0.1:${lock.port}/health`, { headers, signal: AbortSignal.timeout(HEALTH_TIMEOUT_MS) });
    const body: unknown = await response.json().catch(() => undefined);
    if (response.ok && typeof body === "object" && body !== null) result.health = body as Record<string, unknown>;
    else result.healthError = `HTTP ${response.status}`;
  } catch (err) {
    result.healthError = errorMessage(err);
  }
  return result;
}

function describe(b: BridgeStatus): string {
  const who = `${b.ideName ?? "IDE"} on port ${b.port}`;
  const pid =
    b.pid === undefined
      ? `no pid, ${b.alive ? "counted as running" : "not running"}`
      : `pid ${b.pid} ${b.alive ? "running" : "not running"}`;
  const lines = [`${who} (${pid}) for ${b.workspace ?? (b.workspaceFolders.join(", ") || "?")}`, `  lock:   ${b.lockPath}`];
  const h = b.health;
  if (h) {
    const num = (k: string) => (typeof h[k] === "number" ? (h[k] as number) : 0);
    lines.push(
      `  health: ${String(h.status)}, version ${String(h.version ?? "?")}, up ${duration(num("uptimeMs"))}, ` +
        `${num("activeSessions")} session(s) connected, ${num("sessionsInGrace")} in grace, ${num("tools")} tools`,
    );
    lines.push(...languageServerLines(h.languageServers));
  } else {
    lines.push(`  health: unavailable (${b.healthError ?? "unknown"})`);
  }
  if (b.problem !== null && b.problem !== "dead") lines.push(`  skipped by the shim and print-token: ${PROBLEMS[b.problem]}`);
  return `${lines.join("\n")}\n`;
}

/** Each language server's state and memory, and the pool's caps, from /health (src/lsp/lsp-health.ts). */
function languageServerLines(value: unknown): string[] {
  const described = describeLanguageServers(value);
  if (described === undefined) return [];
  return [`  language servers: ${described.pool}`, ...described.servers.map((s) => `    ${s}`)];
}

function duration(ms: number): string {
  const s = Math.floor(ms / 1000);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m ${s % 60}s`;
  return `${Math.floor(s / 3600)}h ${Math.floor((s % 3600) / 60)}m`;
}
