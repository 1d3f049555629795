// `claude-ide-bridge stop [--port N] [--workspace DIR]`: stops the bridge for this directory (the
// one the shim would use) or the one on a port, cleanly: `POST /shutdown` with its token runs its
// shutdown (lock removed, sessions checkpointed), the same as SIGTERM, on every OS. A bridge
// without that route (an older version) gets SIGTERM. Waits until its lock file is gone.
import { errorMessage } from "../errors.ts";
import { lockDir } from "../lock/lock-file.ts";
import { chooseLock, listLocks, type BridgeLock } from "./bridge-locks.ts";
import { awaitStartingBridge } from "./starting-bridge.ts";
import type { CommandContext, CommandMain } from "./command-io.ts";
import { parseFlags, portFlag, workspaceFlag } from "./flags.ts";

const STOP_HELP = `Usage: claude-ide-bridge stop [--port <n>] [--workspace <dir>]

Stops the running bridge for the directory (default: the current one) or on the given port,
cleanly (its lock file is removed), and waits until it has gone. Exits 1 when there is none.
`;

const REQUEST_TIMEOUT_MS = 2_000;
const STOPPED_WITHIN_MS = 10_000;
const POLL_MS = 50;
/** The bridge exits right after removing its lock; longer means nobody reaps it (see stopped()). */
const EXIT_AFTER_LOCK_MS = 1_000;

export const stop: CommandMain = async (ctx, args) => {
  const flags = parseFlags(args, { values: ["--port", "--workspace"], booleans: ["--help", "-h"] });
  if (flags.booleans.has("--help") || flags.booleans.has("-h")) {
    ctx.out(STOP_HELP);
    return 0;
  }
  const port = portFlag(flags);
  const cwd = workspaceFlag(flags, ctx.runtime.paths.cwd);
  const find = async () =>
    chooseLock(
      ctx.runtime,
      (await listLocks(ctx.runtime)).filter((l) => l.lock.isBridge),
      { port, cwd },
    );
  // A shim may be starting this directory's bridge, its lock not written yet (src/cli/starting-bridge.ts).
  const target = (await find()) ?? (port === undefined ? await awaitStartingBridge(ctx.runtime, find) : undefined);
  if (target === undefined) {
    const which = port !== undefined ? `on port ${port}` : `whose workspace contains ${cwd}`;
    ctx.err(`claude-ide-bridge: no running bridge ${which} (lock files in ${lockDir(ctx.runtime)}); see claude-ide-bridge status\n`);
    return 1;
  }
  const how = await askToStop(ctx, target);
  if (how === undefined) return 1;
  if (!(await stopped(ctx, target))) {
    ctx.err(
      `claude-ide-bridge: the bridge on port ${target.port} (pid ${target.lock.pid ?? "?"}) was asked to stop (${how}) but still runs after ${STOPPED_WITHIN_MS / 1000} s; kill ${target.lock.pid ?? "<pid>"}\n`,
    );
    return 1;
  }
  ctx.err(
    `stopped the bridge on port ${target.port} (pid ${target.lock.pid ?? "?"}, ${how}) for ${target.lock.workspace ?? target.lock.workspaceFolders.join(", ")}\n`,
  );
  return 0;
};

/** How it was asked ("POST /shutdown", "SIGTERM"), or undefined when it could not be (reported). */
async function askToStop(ctx: CommandContext, target: BridgeLock & { lock: { authToken: string } }): Promise<string | undefined> {
  let problem: string;
  try {
    const response = await fetch(`http://127.0.0.1:${target.port}/shutdown`, {
      method: "POST",
      headers: { authorization: `Bearer ${target.lock.authToken}` },
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    await response.body?.cancel();
    if (response.status === 202) return "POST /shutdown";
    problem = `HTTP ${response.status}`;
  } catch (err) {
    problem = errorMessage(err);
  }
  const pid = target.lock.pid;
  if (pid === undefined || !ctx.runtime.processAlive(pid)) {
    ctx.err(`claude-ide-bridge: the bridge on port ${target.port} did not take the request (${problem}) and its process is not running\n`);
    return undefined;
  }
  try {
    ctx.signalProcess(pid, "SIGTERM");
    return `SIGTERM, since /shutdown answered ${problem}`;
  } catch (err) {
    ctx.err(`claude-ide-bridge: cannot stop pid ${pid}: ${errorMessage(err)}\n`);
    return undefined;
  }
}

/**
 * Its lock is gone (the last thing its shutdown does) and its process ended, or has not been
 * reaped a moment later: an orphaned bridge's exit waits on an init that may never reap it, and a
 * zombie still answers kill(pid, 0).
 */
async function stopped(ctx: CommandContext, target: BridgeLock): Promise<boolean> {
  const deadline = Date.now() + STOPPED_WITHIN_MS;
  let lockGoneAt: number | undefined;
  while (Date.now() < deadline) {
    const lockGone = await ctx.runtime.fs.lstat(target.path).then(
      () => false,
      () => true,
    );
    if (lockGone) lockGoneAt ??= Date.now();
    const pid = target.lock.pid;
    if (lockGoneAt !== undefined && (pid === undefined || !ctx.runtime.processAlive(pid) || Date.now() - lockGoneAt > EXIT_AFTER_LOCK_MS))
      return true;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  return false;
}
