// Never silently partial, since a model takes a short list of references for the whole list: a
// request whose answer depends on the whole project (references, implementations, workspace
// symbols, incoming calls) is sent once the server is ready by its readiness rule
// (server-specs.ts) and has logged its readiness line where it has one (pyright's "Found N source
// files"), up to a deadline; past the deadline the answer is returned marked partial, with what the
// server was still doing.
import type { LanguageServer } from "./language-server.ts";
import { WakeList } from "./wake-list.ts";

export interface Answer<T> {
  value: T;
  complete: boolean;
  /** Why the answer may be partial. */
  why?: string;
}

export interface ReadinessWait {
  deadline: number;
  signal: AbortSignal;
  /**
   * Why the server's readiness task cannot come for this file (index-input.ts: clangd without a
   * compile_commands.json), asked only while the task has not begun: then the answer is partial at
   * once rather than after waiting for a task that will not start.
   */
  taskMissing?: () => Promise<string | undefined>;
}

/** Servers that were seen settled once answer later requests at once (their project is loaded). */
const settled = new WeakSet<LanguageServer>();

export async function wholeProjectAnswer<T>(server: LanguageServer, ask: () => Promise<T>, opts: ReadinessWait): Promise<Answer<T>> {
  const readiness = server.launch.spec.readiness;
  if (readiness.rule === "answers-complete") return { value: await ask(), complete: true };
  if (readiness.rule === "task") {
    const notReady = await taskNotDone(server, readiness, opts);
    if (notReady !== undefined) return { value: await ask(), complete: false, why: notReady };
  }
  const readyLog = server.launch.spec.readyLog;
  if (readyLog !== undefined && !(await server.progress.readyLog(opts.deadline, opts.signal)))
    return {
      value: await ask(),
      complete: false,
      why: `${server.launch.spec.id} had not finished its ${readyLog.what} ${Math.round((Date.now() - server.startedAt) / 1000)} s after it started, so it answered from the files open in it; call again in a moment`,
    };
  const idle = await server.progress.idle(opts.deadline, opts.signal);
  if (!idle) return { value: await ask(), complete: false, why: busy(server) };
  // A server that logged its readiness line answers from all its project's files: no need to sample twice.
  if (readiness.rule !== "stable" || settled.has(server) || readyLog !== undefined) return { value: await ask(), complete: true };
  let previous = await ask();
  // A first answer that itself took past the deadline (a loaded machine) still gets one comparison.
  const deadline = Math.max(opts.deadline, Date.now() + 2 * readiness.settleMs);
  for (let asked = 1; ; asked++) {
    if (Date.now() + readiness.settleMs > deadline)
      return {
        value: previous,
        complete: false,
        why: `${server.launch.spec.id} may still be loading the project (${asked} answers, no two alike, before the deadline)`,
      };
    await pause(readiness.settleMs, opts.signal);
    if (opts.signal.aborted) return { value: previous, complete: false, why: "cancelled" };
    const next = await ask();
    if (sameAnswer(next, previous) && server.progress.busyWith().length === 0) {
      settled.add(server);
      return { value: next, complete: true };
    }
    previous = next;
  }
}

/** Why the server's readiness task has not ended once by the deadline, or undefined once it has. */
async function taskNotDone(
  server: LanguageServer,
  task: { token: string; title: string; beginWithinMs: number },
  opts: ReadinessWait,
): Promise<string | undefined> {
  if (server.progress.taskState(task.token) === "not-begun") {
    const missing = await opts.taskMissing?.();
    if (missing !== undefined) return missing;
  }
  const beginBy = server.startedAt + task.beginWithinMs;
  const state = await server.progress.taskEnded(task.token, { beginBy, deadline: opts.deadline, signal: opts.signal });
  const id = server.launch.spec.id;
  if (state === "ended") return undefined;
  if (state === "running")
    return `${id}'s ${task.title} was still running (${server.progress.busyWith().join("; ") || task.title}), so files it has not indexed are missing; call again in a moment`;
  if (opts.signal.aborted) return "cancelled";
  return `${id}'s ${task.title} had not started ${Math.round((Date.now() - server.startedAt) / 1000)} s after ${id} did, so it answered from the open files only (a compilation database, compile_commands.json, makes it index the project)`;
}

/** Equal answers, a list's order aside: some servers (pyright) list the same references in another order each time. */
function sameAnswer(a: unknown, b: unknown): boolean {
  const canonical = (x: unknown) =>
    Array.isArray(x)
      ? x
          .map((e) => JSON.stringify(e))
          .sort()
          .join("\n")
      : JSON.stringify(x);
  return canonical(a) === canonical(b);
}

function busy(server: LanguageServer): string {
  const doing = server.progress.busyWith();
  return `${server.launch.spec.id} was still busy${doing.length > 0 ? ` (${doing.join("; ")})` : ""}`;
}

/** The wait between two samples of a background-indexing server's answer; not a synchronisation. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new WakeList().wait(Date.now() + ms, signal);
}
