// What tools see of the Claude Code task orchestrator (src/services/claude-tasks/orchestrator.ts):
// submit a task, read it, list, cancel, follow its output. The orchestrator is the bridge's, one for
// all sessions, and its history outlives the bridge (a file in the bridge's state directory).
import type { ClaudeEffort } from "./claude-driver.ts";

export type ClaudeTaskStatus = "pending" | "running" | "done" | "failed" | "cancelled" | "timeout" | "interrupted";

export const FINISHED_STATUSES: readonly ClaudeTaskStatus[] = ["done", "failed", "cancelled", "timeout", "interrupted"];

export interface ClaudeTaskRequest {
  prompt: string;
  model?: string;
  effort?: ClaudeEffort;
  systemPrompt?: string;
  timeoutMs: number;
  /** Claude Code's session to continue (resumeClaudeTask). */
  resumeSessionId?: string;
  /** The task this one continues. */
  resumedFrom?: string;
  /** What started it: "tool" for a tool call, else the automation hook's name. */
  trigger: string;
}

export interface ClaudeTask {
  id: string;
  status: ClaudeTaskStatus;
  trigger: string;
  /** The prompt's first characters (the whole prompt is not kept). */
  promptPreview: string;
  model?: string;
  effort?: ClaudeEffort;
  timeoutMs: number;
  createdAt: number;
  startedAt?: number;
  endedAt?: number;
  /** Claude Code's session id, for resumeClaudeTask. */
  sessionId?: string;
  resumedFrom?: string;
  /** The final answer. */
  result?: string;
  error?: string;
  numTurns?: number;
  costUsd?: number;
  /** The last lines of its output (assistant text, tool calls), oldest first. */
  output: string[];
}

export interface ClaudeTasks {
  /** Why no task can run (no driver, no claude found), or undefined when they can. */
  readonly unavailable: { reason: string; suggestion: string } | undefined;
  submit(request: ClaudeTaskRequest): ClaudeTask;
  get(id: string): ClaudeTask | undefined;
  /** Newest first. */
  list(opts?: { status?: ClaudeTaskStatus; limit?: number }): ClaudeTask[];
  /** Cancels a pending or running task; answers what it is now. */
  cancel(id: string): Promise<ClaudeTask | undefined>;
  /** Each new output line of a task until it finishes; returns the unsubscribe function. */
  subscribe(id: string, listener: (line: string) => void): () => void;
  /** Resolves when the task has finished, or when `signal` aborts (with the task as it is then). */
  settled(id: string, signal: AbortSignal): Promise<ClaudeTask | undefined>;
}
