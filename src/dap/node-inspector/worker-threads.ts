// Worker threads (worker_threads) of a debugged Node program. Each has an inspector session of its
// own, reached through the main one's NodeWorker domain; the bridge's adapter debugs the main thread
// only. So a worker is not left unmentioned: when one starts, the program's output says so
// ("breakpoints in worker threads are not supported"), and the threads answer lists it, named as
// not debugged, until it ends. The worker runs on undisturbed: its session is never told to pause,
// and one that waits for a debugger (a worker inherits --inspect-brk from a launched program, and
// would hang at its start) is told to run.
import type { DebugProtocol } from "@vscode/debugprotocol";
import type { CdpClient } from "./cdp-client.ts";

/** The main thread is DAP thread 1; workers follow. */
const FIRST_WORKER_THREAD = 2;

interface WorkerInfo {
  workerId?: string;
  title?: string;
  url?: string;
}

export class WorkerThreads {
  private readonly live = new Map<string, DebugProtocol.Thread>();
  private nextThread = FIRST_WORKER_THREAD;

  constructor(private readonly note: (text: string) => void) {}

  /** Listens for the program's workers; an inspector without the NodeWorker domain has none to report. */
  async watch(cdp: CdpClient): Promise<void> {
    cdp.on("NodeWorker.attachedToWorker", (p) => {
      const info = (p.workerInfo ?? {}) as WorkerInfo;
      const sessionId = String(p.sessionId ?? "");
      const run = JSON.stringify({ id: 1, method: "Runtime.runIfWaitingForDebugger" });
      void cdp.send("NodeWorker.sendMessageToWorker", { sessionId, message: run }).catch(() => {});
      const what = `worker thread ${info.workerId ?? "?"}${info.url ? ` (${info.url})` : ""}`;
      this.live.set(sessionId, { id: this.nextThread++, name: `${what}: not debugged` });
      this.note(
        `The program started ${what}: breakpoints in worker threads are not supported; it runs without stopping, and only the main thread's code stops.\n`,
      );
    });
    cdp.on("NodeWorker.detachedFromWorker", (p) => {
      this.live.delete(String(p.sessionId ?? ""));
    });
    await cdp.send("NodeWorker.enable", { waitForDebuggerOnStart: false }).catch(() => {});
  }

  threads(): DebugProtocol.Thread[] {
    return [...this.live.values()];
  }
}
