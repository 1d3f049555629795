// The bridge's orchestrator, as --claude-driver and --claude-binary set it up: the driver when a
// `claude` is found, the history of earlier bridges on this workspace read back, and each finished
// task published on the event bus (automation's onTaskSuccess).
import type { Runtime } from "../../ports/runtime.ts";
import type { AutomationConfig } from "../../config/automation.ts";
import type { EventPublisher } from "../../capabilities/events/event-bus.ts";
import { findClaudeBinary } from "../../capabilities/claude/claude-binary.ts";
import { createClaudeDriver } from "../../capabilities/claude/claude-driver.ts";
import { ClaudeOrchestrator } from "./orchestrator.ts";
import { TaskFileWriter, loadTasks, taskFilePath } from "./task-file.ts";

export interface OpenClaudeTasksOptions {
  config: AutomationConfig;
  root: string;
  /** Where the history file goes (the bridge's lock directory). */
  stateDir: string;
  passEnv: readonly string[];
  events: EventPublisher;
  log: { info(message: string, data?: unknown): void; warn(message: string, data?: unknown): void };
  now?: () => number;
}

export async function openClaudeTasks(
  runtime: Pick<Runtime, "fs" | "which" | "spawn" | "env">,
  opts: OpenClaudeTasksOptions,
): Promise<ClaudeOrchestrator> {
  const now = opts.now ?? Date.now;
  const path = await taskFilePath(opts.stateDir, opts.root);
  const warn = (message: string) => opts.log.warn(message);
  const history = await loadTasks(runtime, path, { now: now(), warn });
  const binary =
    opts.config.claudeDriver === "subprocess"
      ? await findClaudeBinary(runtime, { configured: opts.config.claudeBinary, root: opts.root })
      : undefined;
  const unavailable =
    opts.config.claudeDriver === "none"
      ? { reason: "Claude Code tasks are off (--claude-driver none)", suggestion: "Restart the bridge with --claude-driver subprocess." }
      : binary === undefined
        ? {
            reason: "No `claude` executable was found on the bridge's PATH or in node_modules/.bin",
            suggestion: "Install Claude Code, or name it with --claude-binary, and restart the bridge.",
          }
        : undefined;
  if (binary !== undefined) opts.log.info(`Claude Code tasks run ${binary}`);
  else if (opts.config.claudeDriver === "subprocess") opts.log.warn(unavailable?.reason ?? "no claude");
  let orchestrator: ClaudeOrchestrator | undefined;
  const writer = new TaskFileWriter(runtime, { path, workspace: opts.root, snapshot: () => orchestrator?.snapshot() ?? history, warn });
  orchestrator = new ClaudeOrchestrator({
    driver: binary === undefined ? undefined : createClaudeDriver(runtime, { binary, passEnv: opts.passEnv }),
    ...(unavailable === undefined ? {} : { unavailable }),
    cwd: opts.root,
    concurrency: opts.config.concurrency,
    history,
    writer,
    now,
    onFinished: (task) => opts.events.publish("claude.task", { id: task.id, status: task.status, trigger: task.trigger }),
  });
  // Interrupted tasks found at start are written back as such.
  if (history.some((t) => t.status === "interrupted")) writer.changed();
  return orchestrator;
}
