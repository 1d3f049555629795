// The Claude Code subprocess driver: runs `claude -p --output-format stream-json --verbose` with the
// prompt on stdin (not in argv, where `ps` shows it and its size is limited), reads the JSONL stream
// as it arrives, and ends the process tree on abort or timeout the way ctx.exec does (its own process
// group, SIGTERM then SIGKILL after a grace: src/capabilities/exec/end-tree.ts).
import type { Runtime } from "../../ports/runtime.ts";
import { errorMessage } from "../../errors.ts";
import { endLeftovers, killAfterGrace } from "../exec/end-tree.ts";
import { claudeEnvironment } from "./claude-env.ts";
import { readJsonl, type JsonlCounts } from "./jsonl-lines.ts";

/** One stream-json line of Claude Code may carry a whole file it read; longer ones are dropped. */
const MAX_LINE_BYTES = 1024 * 1024;
const STDERR_TAIL_CHARS = 4000;

export type ClaudeEffort = "low" | "medium" | "high" | "xhigh" | "max";
export type ClaudeRunOutcome = "done" | "failed" | "cancelled" | "timeout";

export interface ClaudeRunRequest {
  prompt: string;
  /** Absolute directory Claude Code runs in (the workspace root). */
  cwd: string;
  model?: string;
  effort?: ClaudeEffort;
  systemPrompt?: string;
  /** Claude Code's session id to continue (`--resume`). */
  resumeSessionId?: string;
  timeoutMs: number;
  /** Tells a `claude-ide-bridge notify` run inside the task which task it is (the loop guard). */
  taskId?: string;
  onEvent?(event: Record<string, unknown>): void;
}

export interface ClaudeRunResult {
  outcome: ClaudeRunOutcome;
  /** Undefined when it could not start. */
  exitCode: number | undefined;
  sessionId?: string;
  /** The final answer (the stream's `result` line). */
  result?: string;
  numTurns?: number;
  costUsd?: number;
  durationMs: number;
  /** Why it failed, when it did: the result line's error, or the end of stderr. */
  error?: string;
  stream: JsonlCounts;
}

export interface ClaudeDriver {
  /** The executable the driver runs. */
  readonly binary: string;
  run(request: ClaudeRunRequest, signal: AbortSignal): Promise<ClaudeRunResult>;
}

type DriverRuntime = Pick<Runtime, "spawn" | "env">;

export function claudeArgs(request: Omit<ClaudeRunRequest, "prompt" | "cwd" | "timeoutMs">): string[] {
  const args = ["-p", "--output-format", "stream-json", "--verbose"];
  if (request.model !== undefined) args.push("--model", request.model);
  if (request.effort !== undefined) args.push("--effort", request.effort);
  if (request.systemPrompt !== undefined) args.push("--append-system-prompt", request.systemPrompt);
  if (request.resumeSessionId !== undefined) args.push("--resume", request.resumeSessionId);
  return args;
}

export function createClaudeDriver(runtime: DriverRuntime, opts: { binary: string; passEnv?: readonly string[] }): ClaudeDriver {
  return {
    binary: opts.binary,
    run: (request, signal) => runClaude(runtime, { ...opts, request }, signal),
  };
}

async function runClaude(
  runtime: DriverRuntime,
  opts: { binary: string; passEnv?: readonly string[]; request: ClaudeRunRequest },
  signal: AbortSignal,
): Promise<ClaudeRunResult> {
  const { request } = opts;
  const started = performance.now();
  const timeout = AbortSignal.timeout(request.timeoutMs);
  const stop = AbortSignal.any([signal, timeout]);
  const counts: JsonlCounts = { unparsed: 0, oversized: 0 };
  const outcomeOfStop = (): ClaudeRunOutcome => (signal.aborted ? "cancelled" : "timeout");
  if (stop.aborted) return { outcome: outcomeOfStop(), exitCode: undefined, durationMs: 0, stream: counts };
  const env = claudeEnvironment(runtime.env, {
    ...(opts.passEnv === undefined ? {} : { passEnv: opts.passEnv }),
    ...(request.taskId === undefined ? {} : { taskId: request.taskId }),
  });
  let child: ReturnType<DriverRuntime["spawn"]>;
  try {
    child = runtime.spawn(opts.binary, claudeArgs(request), {
      cwd: request.cwd,
      env,
      stdin: request.prompt,
      processGroup: true,
      signal: stop,
    });
  } catch (err) {
    return {
      outcome: "failed",
      exitCode: undefined,
      durationMs: 0,
      error: `could not start ${opts.binary}: ${errorMessage(err)}`,
      stream: counts,
    };
  }
  killAfterGrace(child, { stop, done: child.exited });
  let final: Record<string, unknown> | undefined;
  let sessionId: string | undefined;
  let stderr = "";
  const stopReading = new AbortController();
  const output = Promise.all([
    readJsonl(
      child.stdout,
      (event) => {
        if (typeof event.session_id === "string") sessionId = event.session_id;
        if (event.type === "result") final = event;
        try {
          request.onEvent?.(event);
        } catch {
          // A subscriber's fault never ends the run.
        }
      },
      { maxLineBytes: MAX_LINE_BYTES, signal: stopReading.signal },
    ).then((c) => Object.assign(counts, c)),
    readTail(
      child.stderr,
      (text) => {
        stderr = (stderr + text).slice(-STDERR_TAIL_CHARS);
      },
      stopReading.signal,
    ),
  ]);
  let exitCode: number;
  try {
    exitCode = await child.exited;
  } catch (err) {
    return {
      outcome: "failed",
      exitCode: undefined,
      durationMs: Math.round(performance.now() - started),
      error: `could not run ${opts.binary}: ${errorMessage(err)}`,
      stream: counts,
    };
  }
  await endLeftovers(child, { output, stopReading });
  const durationMs = Math.round(performance.now() - started);
  const base = {
    exitCode,
    durationMs,
    stream: counts,
    ...(sessionId === undefined ? {} : { sessionId }),
    ...resultFields(final),
  };
  if (stop.aborted) return { ...base, outcome: outcomeOfStop() };
  const failedResult = final !== undefined && (final.is_error === true || final.subtype !== "success");
  if (exitCode === 0 && final !== undefined && !failedResult) return { ...base, outcome: "done" };
  const why =
    final === undefined
      ? `claude exited with code ${exitCode} without a result${stderr.trim() === "" ? "" : `: ${stderr.trim()}`}`
      : `claude ended with ${String(final.subtype)}${typeof final.result === "string" ? `: ${final.result}` : ""}`;
  return { ...base, outcome: "failed", error: why };
}

function resultFields(final: Record<string, unknown> | undefined): Pick<ClaudeRunResult, "result" | "numTurns" | "costUsd"> {
  if (final === undefined) return {};
  return {
    ...(typeof final.result === "string" ? { result: final.result } : {}),
    ...(typeof final.num_turns === "number" ? { numTurns: final.num_turns } : {}),
    ...(typeof final.total_cost_usd === "number" ? { costUsd: final.total_cost_usd } : {}),
  };
}

async function readTail(stream: ReadableStream<Uint8Array>, onText: (text: string) => void, signal: AbortSignal): Promise<void> {
  const decoder = new TextDecoder();
  const reader = stream.getReader();
  const cancel = () => void reader.cancel().catch(() => {});
  signal.addEventListener("abort", cancel, { once: true });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      onText(decoder.decode(value, { stream: true }));
    }
  } finally {
    signal.removeEventListener("abort", cancel);
    reader.releaseLock();
  }
}
