// Work-done progress ($/progress begin/report/end) of one server: what it is busy with, so a
// whole-project request can wait until the server has loaded or indexed its project and otherwise
// say in its result what the server was still doing, rather than pass a partial answer off as whole.
import { WakeList } from "./wake-list.ts";
import type { ProgressToken, WorkDoneProgressBegin, WorkDoneProgressEnd, WorkDoneProgressReport } from "vscode-languageserver-protocol";

type WorkDone = WorkDoneProgressBegin | WorkDoneProgressReport | WorkDoneProgressEnd;

interface ProgressParams<T> {
  token: ProgressToken;
  value: T;
}

export class ProgressTracker {
  private readonly active = new Map<string | number, string>();
  private readonly ended = new WakeList();
  /** When the last progress ended (or the tracker was made), for "settled for a while" checks. */
  lastChange = Date.now();

  onProgress(params: unknown): void {
    if (!isProgress(params)) return;
    const value = params.value;
    if (value.kind === "begin") this.active.set(params.token, value.title + (value.message ? `: ${value.message}` : ""));
    else if (value.kind === "report" && this.active.has(params.token) && value.message)
      this.active.set(params.token, `${(this.active.get(params.token) ?? "").split(":")[0]}: ${value.message}`);
    else if (value.kind === "end") this.active.delete(params.token);
    this.lastChange = Date.now();
    if (this.active.size === 0) this.wake();
  }

  /** What the server says it is doing now ("Loading packages", "indexing: 3/40"). */
  busyWith(): string[] {
    return [...this.active.values()];
  }

  /** Resolves true once no progress is active, false at the deadline or on abort. */
  async idle(deadline: number, signal: AbortSignal): Promise<boolean> {
    while (this.active.size > 0) {
      const remaining = deadline - Date.now();
      if (remaining <= 0 || signal.aborted) return false;
      await this.ended.wait(deadline, signal);
    }
    return true;
  }

  /** The server died: nothing it started is still running. */
  reset(): void {
    this.active.clear();
    this.wake();
  }

  private wake(): void {
    this.ended.wake();
  }
}

function isProgress(params: unknown): params is ProgressParams<WorkDone> {
  if (typeof params !== "object" || params === null || !("token" in params) || !("value" in params)) return false;
  const value = (params as { value: unknown }).value;
  return (
    typeof value === "object" &&
    value !== null &&
    "kind" in value &&
    ["begin", "report", "end"].includes(String((value as { kind: unknown }).kind))
  );
}
