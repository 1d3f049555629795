// `claude-ide-bridge shim`: MCP over stdio for clients that cannot speak the bridge's WebSocket
// (Claude Code's `claude mcp add`, Cursor, Codex…), and a connection that survives bridge
// restarts. stdout carries only MCP messages; logs go to stderr (protocol.md B6).
// Kept to node: modules and `ws` so it starts fast and runs on Node, Bun and Deno alike.
import { mkdirSync } from "node:fs";
import process from "node:process";
import type { CliHost } from "../src/cli/cli-host.ts";
import { PACKAGE_VERSION } from "../src/version.ts";
import { MAX_MESSAGE_BYTES } from "../src/wire.ts";
import { connectBridge, loadWebSocket } from "./bridge-link.ts";
import { Connector } from "./connector.ts";
import type { PredictAnswer } from "./early-initialize.ts";
import { rerunCommand, type Invocation, type RuntimeName } from "../src/cli/launcher.ts";
import { findTarget, lockDirectory, realDirectory, watchLocks, type Target } from "./discovery.ts";
import { LineSplitter, type Line } from "./line-splitter.ts";
import { createShimLog, type ShimLog } from "./log.ts";
import { classifyLine, salvageId, ShimErrorCode } from "./messages.ts";
import { noBridgeError } from "./no-bridge-error.ts";
import { CONNECT_TIMEOUT_MS, parseShimArgs, SHIM_HELP, ShimUsageError, type ShimOptions } from "./options.ts";
import { projectRootOf } from "./project-root.ts";
import { Relay } from "./relay.ts";
import { createSpawner } from "./spawn-bridge.ts";

/** The bridge refuses larger frames, so longer lines are answered here. */
export const MAX_LINE_BYTES = MAX_MESSAGE_BYTES;
const MAX_QUEUE = 1000;
const LOCK_POLL_MS = 2_000;
/** After stdin ends, answers still due may take this long to arrive. */
const DRAIN_ON_END_MS = 2_000;
/** How long an exit waits for a client that stopped reading to take what was written for it. */
const FLUSH_LIMIT_MS = 10_000;

/** What the shim needs from its host: a narrow slice of the CliHost (src/cli/cli-host.ts). */
export interface ShimHost {
  /** Runs `fn` once on SIGINT/SIGTERM or shutdown(), before the process exits. */
  onShutdown(fn: () => Promise<void>): void;
  shutdown(exitCode: number): Promise<never>;
  writeStdout(text: string): void;
}

/** `claude-ide-bridge shim` as a subcommand of the shared CLI (runtime/cli/subcommands.ts). */
export default function runShimSubcommand(host: CliHost, args: string[]): Promise<number | undefined> {
  return runShim(
    {
      onShutdown: (fn) => host.runtime.onShutdown(fn),
      shutdown: (code) => host.shutdown(code),
      writeStdout: (text) => host.writeStdout(text),
    },
    args,
  );
}

/**
 * The shim without the shared CLI, for an entry point's fast path (`argv[0] === "shim"`): it skips
 * loading the bridge's runtime adapter and config schema, about 45 ms of Node's start-up.
 */
export async function runShimStandalone(args: string[]): Promise<void> {
  const handlers: Array<() => Promise<void>> = [];
  let exiting: Promise<never> | undefined;
  const shutdown = (code: number): Promise<never> =>
    (exiting ??= (async () => {
      await Promise.race([Promise.allSettled(handlers.map((fn) => fn())), new Promise((r) => setTimeout(r, 2_000))]);
      process.exit(code);
    })());
  // SIGHUP: the terminal closed; clean up as for SIGTERM.
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.once(signal, () => void shutdown(0));
  const code = await runShim({ onShutdown: (fn) => handlers.push(fn), shutdown, writeStdout: (text) => process.stdout.write(text) }, args);
  if (code !== undefined) await shutdown(code);
}

export async function runShim(host: ShimHost, args: string[]): Promise<number | undefined> {
  let opts: ShimOptions | "help";
  try {
    opts = parseShimArgs(args, process.env);
  } catch (err) {
    if (!(err instanceof ShimUsageError)) throw err;
    process.stderr.write(`claude-ide-bridge shim: ${err.message}\nRun claude-ide-bridge shim --help for the options.\n`);
    return 2;
  }
  if (opts === "help") {
    host.writeStdout(SHIM_HELP);
    return 0;
  }
  await startShim(host, opts);
  return undefined;
}

async function startShim(host: ShimHost, opts: ShimOptions): Promise<void> {
  const startedAt = Date.now();
  const log = createShimLog({ verbose: opts.verbose });
  const named = opts.workspace ?? nonEmpty(process.env.CLAUDE_PROJECT_DIR);
  // Locks are matched against the directory Claude Code runs in (a bridge on a parent serves it
  // too); a bridge the shim starts is rooted at the project around it. CLAUDE_PROJECT_DIR is only
  // where Claude Code was started (measured with 2.1.332: `app/src` when started there, while it
  // keys its own project config at the git root), so it is walked up like the cwd; --workspace is
  // taken as given.
  const workspace = realDirectory(named ?? process.cwd());
  const root = opts.workspace !== undefined ? workspace : await projectRootOf(workspace);
  const lockDir = lockDirectory(process.env);
  const sessionId = crypto.randomUUID();
  let exiting = false;
  try {
    // Claude Code makes it too; having it now lets fs.watch see the first lock appear.
    mkdirSync(lockDir, { recursive: true, mode: 0o700 });
  } catch {
    // The poll copes without it.
  }

  let stdoutFull = false;
  const relay = new Relay({
    writeClient: (line) => {
      if (process.stdout.destroyed) return true; // the client is gone; EPIPE handling exits
      const ok = process.stdout.write(`${line}\n`);
      if (!ok && !stdoutFull) {
        // The client is not reading: stop reading the bridge until it has caught up.
        stdoutFull = true;
        relay.pauseBridge();
        process.stdout.once("drain", () => {
          stdoutFull = false;
          relay.resumeBridge();
        });
      }
      return ok;
    },
    log,
    maxQueue: MAX_QUEUE,
    noticeTimeoutMs: 1_000,
    replayTimeoutMs: 10_000,
  });

  const exit = async (code: number): Promise<void> => {
    if (exiting) return;
    exiting = true;
    await connector.stop();
    await flushStdout();
    await host.shutdown(code);
  };

  const spawner =
    opts.spawn && opts.port === undefined
      ? createSpawner({
          root,
          lockDir,
          self: selfCommand(),
          bridgeArgs: opts.bridgeArgs,
          idleTimeoutMs: opts.idleTimeoutMs,
          log,
          bridgeRunning: async () => (await find(undefined)) !== undefined,
          onEarlyExit: (failure) => {
            log.error(`the bridge this shim started ${failure.ended}${failure.logPath ? `; log ${failure.logPath}` : ""}`);
            declareUnavailable();
          },
        })
      : undefined;
  let reached = false;
  let predicted: Promise<PredictAnswer | undefined> | undefined;
  const declareUnavailable = () => {
    if (reached || exiting) return;
    const error = noBridgeError({
      workspace,
      root,
      spawning: spawner !== undefined,
      spawn: spawner?.state ?? { kind: "none" },
      lastProblem: connector.lastProblem,
      waitedMs: Date.now() - startedAt,
      lockDir,
    });
    log.error(error.message);
    relay.setUnavailable(error);
  };
  // The client waits 30 s for its initialize, then reports only a timeout: answer it with the
  // reason before that.
  const connectTimeout = setTimeout(
    declareUnavailable,
    opts.connectTimeoutMs ?? (spawner ? CONNECT_TIMEOUT_MS.spawning : CONNECT_TIMEOUT_MS.waiting),
  );
  connectTimeout.unref();

  const explicitToken = opts.token ?? (opts.port !== undefined ? nonEmpty(process.env.CLAUDE_IDE_BRIDGE_TOKEN) : undefined);
  const find = async (previousPort: number | undefined): Promise<Target | undefined> => {
    if (opts.port !== undefined && opts.token !== undefined) return { port: opts.port, token: opts.token, fromLock: false, isBridge: true };
    const found = await findTarget({ dir: lockDir, cwd: workspace, port: opts.port, previousPort });
    // Another IDE's lock (VS Code, JetBrains) offers only its own few tools: while the shim may
    // start a bridge, it does, rather than settle for that.
    if (found && spawner && !found.isBridge) return undefined;
    if (found || opts.port === undefined || explicitToken === undefined) return found;
    return { port: opts.port, token: explicitToken, fromLock: false, isBridge: true };
  };

  const connector = new Connector({
    relay,
    log,
    find,
    connect: (target) =>
      connectBridge({ port: target.port, token: target.token, sessionId, userAgent: `claude-ide-bridge-shim/${PACKAGE_VERSION}` }),
    watch: (onChange) => watchLocks(lockDir, onChange, { pollMs: LOCK_POLL_MS }),
    waitingMessage:
      opts.port !== undefined
        ? `waiting for the bridge on port ${opts.port} (lock ${lockDir}/${opts.port}.lock)`
        : `waiting for a bridge whose workspace contains ${workspace} (lock files in ${lockDir})` +
          (spawner ? "" : `; start one with \`claude-ide-bridge --workspace ${root}\`, or run the shim without --no-spawn`),
    onNoBridge: spawner
      ? () => {
          // The answer is made ready before the bridge starts: started first, the bridge takes the CPU it needs.
          predicted ??= predictAnswer({ root, bridgeArgs: opts.bridgeArgs, log });
          void predicted.then(async (predict) => {
            await spawner.ensure();
            // While the bridge starts: the socket library is needed once its lock appears.
            void loadWebSocket();
            if (predict !== undefined && spawner.state.kind === "started") relay.answerInitializeEarly(predict);
          });
        }
      : undefined,
    onConnected: () => {
      reached = true;
      clearTimeout(connectTimeout);
      spawner?.connected();
    },
    giveUpMs: opts.giveUpMs,
    initialBackoffMs: 1_000,
    maxBackoffMs: 30_000,
    onFatal: (why, message) => {
      log.error(message);
      relay.failAll(`claude-ide-bridge shim: ${message}`, why === "gave-up" ? "bridge_unreachable" : "bridge_refused");
      void exit(1);
    },
  });

  readStdin(relay, log, async () => {
    // The client is gone or done: let answers already due arrive, then go.
    const deadline = Date.now() + DRAIN_ON_END_MS;
    while (relay.outstanding > 0 && Date.now() < deadline && !exiting) await new Promise((r) => setTimeout(r, 20));
    await exit(0);
  });
  process.stdout.on("error", (err: NodeJS.ErrnoException) => {
    // EPIPE: the client closed its end; nobody is left to answer.
    if (err.code !== "EPIPE") log.error(`stdout: ${err.message}`);
    exiting = true;
    void connector.stop().then(() => host.shutdown(err.code === "EPIPE" ? 0 : 1));
  });
  host.onShutdown(() => connector.stop());
  log.debug(`session ${sessionId}; workspace ${workspace}; project root ${root}; lock dir ${lockDir}`);
  void connector.run();
}

/**
 * How the bridge this shim starts will answer initialize (src/startup/predicted-initialize.ts), when
 * its configuration can be read here: the relay answers with that at once (the client's wait is
 * then this shim's start, not the bridge's). Loaded only here, off the path of a shim whose bridge
 * runs already.
 */
async function predictAnswer(opts: { root: string; bridgeArgs: string[]; log: ShimLog }): Promise<PredictAnswer | undefined> {
  try {
    const { predictIdentity, predictedDiscoverResult, predictedInitializeResult } = await import("../src/startup/predicted-initialize.ts");
    const identity = predictIdentity({ root: opts.root, bridgeArgs: opts.bridgeArgs, env: process.env });
    if (identity !== undefined)
      return (method, params) =>
        method === "initialize" ? predictedInitializeResult(params, identity) : predictedDiscoverResult(params, identity);
    opts.log.debug("the bridge's flags or config file are not read here: initialize waits for the bridge");
  } catch (err) {
    opts.log.warn(`initialize waits for the bridge: ${(err as Error).message}`);
  }
  return undefined;
}

function readStdin(relay: Relay, log: ShimLog, onEnd: () => Promise<void>): void {
  const splitter = new LineSplitter(MAX_LINE_BYTES);
  const handle = (line: Line) => {
    if (line.kind === "text") {
      let message: ReturnType<typeof classifyLine>;
      try {
        message = classifyLine(line.text);
      } catch (err) {
        log.warn(`stdin: not JSON (${(err as Error).message}); answered -32700`);
        relay.reply(null, {
          code: ShimErrorCode.parseError,
          message: `Parse error: ${(err as Error).message}; send one JSON-RPC message per line`,
          reason: "not_json",
        });
        return;
      }
      relay.fromClient(message);
    } else if (line.kind === "not-utf8") {
      log.warn(`stdin: a ${line.bytes}-byte line is not UTF-8 text; answered -32700`);
      relay.reply(null, {
        code: ShimErrorCode.parseError,
        message: "Parse error: the line is not UTF-8 text; send one JSON-RPC message per line",
        reason: "not_utf8",
      });
    } else {
      const id = salvageId(line.head, line.tail);
      log.warn(`stdin: a ${line.bytes}-byte message exceeds the ${MAX_LINE_BYTES}-byte limit; not sent (id ${JSON.stringify(id)})`);
      relay.reply(id, {
        code: ShimErrorCode.invalidRequest,
        message: `Request too large: ${line.bytes} bytes exceeds the bridge's ${MAX_LINE_BYTES}-byte message limit; it was not sent`,
        reason: "too_large",
        data: { bytes: line.bytes, limitBytes: MAX_LINE_BYTES },
      });
    }
  };
  process.stdin.on("data", (chunk: Buffer) => {
    for (const line of splitter.push(chunk)) handle(line);
  });
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    for (const line of splitter.end()) handle(line);
    void onEnd();
  };
  process.stdin.on("end", end);
  process.stdin.on("error", end);
}

/** How to start this program again (for a bridge of its own): same runtime, same flags, same entry script. */
function selfCommand(): Invocation {
  const { Bun: bun, Deno: deno } = globalThis as { Bun?: unknown; Deno?: unknown };
  const runtime: RuntimeName = bun !== undefined ? "bun" : deno !== undefined ? "deno" : "node";
  return rerunCommand(runtime, { execPath: process.execPath, execArgv: process.execArgv, script: process.argv[1] ?? "" });
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === "" ? undefined : value;
}

/**
 * Resolves once everything written to stdout so far has reached the pipe (an empty write's callback
 * comes after every earlier chunk's), or after FLUSH_LIMIT_MS when the client stopped reading. One
 * "drain" is not enough: a slow client takes a thousand error answers in many pipe-fulls, and an
 * exit after the first would cut the rest.
 */
function flushStdout(): Promise<void> {
  if (process.stdout.writableLength === 0 || process.stdout.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, FLUSH_LIMIT_MS);
    process.stdout.write("", () => {
      clearTimeout(timer);
      resolve();
    });
  });
}
