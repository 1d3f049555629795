// Automation at bridge start: the policy file read and checked (a bad one stops the start with the
// field's path), the engine subscribed to the event bus, and what /notify brings from Claude Code's
// hooks checked and fed to it. Without --automation-policy no hook runs, but /notify still answers
// and the activity log still shows what came in (so `init --hooks` can be checked without a policy).
// Every decision goes to the log and to the activity log.
import type { Runtime } from "../../ports/runtime.ts";
import { BridgeError, errorMessage } from "../../errors.ts";
import type { EventBus } from "../../capabilities/events/event-bus.ts";
import type { ClaudeTasks } from "../../capabilities/claude/claude-tasks.ts";
import type { AppendedEvent } from "../../capabilities/activity/activity-log.ts";
import { AutomationEngine, type AutomationDecision } from "./automation-engine.ts";
import { connectBus } from "./bus-events.ts";
import { DiagnosticsStates, watchCheckedDiagnostics, watchDiagnosticsState } from "./diagnostics-events.ts";
import type { LspService } from "../../lsp/lsp-service-types.ts";
import { parseNotify } from "./notify-events.ts";
import { parsePolicy } from "./policy.ts";
import type { ToolActivity } from "../claude-tasks/output-lines.ts";
import { createSaveGate } from "./save-gate.ts";
import { watchCommits } from "../git/commit-watcher.ts";
import { outsideCommitsSeen, type OutsideCommits } from "./outside-commits.ts";
import type { CallScope, ToolContext } from "../../capabilities/context.ts";

/** The orchestrator's announcements of the tool uses in its tasks' streams and their results (the loop guard's attribution). */
export interface ToolUseSource {
  onToolActivity(listener: (taskId: string, activity: ToolActivity) => void): () => void;
}

export type NotifyOutcome = { ok: true; event: string; decisions: AutomationDecision[] } | { ok: false; message: string };

export interface Automation {
  /** Undefined without a policy. */
  readonly engine: AutomationEngine | undefined;
  /** A /notify body: checked, shown in the activity log, fed to the hooks. */
  notify(body: unknown): NotifyOutcome;
  /** Publishes git.commit for commits made outside the bridge too, from now until stop (git runs through `gitContext`). */
  followCommits(gitContext: (scope: CallScope) => ToolContext): Promise<void>;
  /** For /health and doctor: whether commits made outside the bridge are seen (undefined until followCommits has looked). */
  status(): { outsideCommits?: OutsideCommits };
  stop(): void;
}

export async function startAutomation(
  runtime: Pick<Runtime, "fs">,
  opts: {
    policyPath: string | undefined;
    bus: EventBus;
    tasks: ClaudeTasks & Partial<ToolUseSource>;
    log: { info(message: string, data?: unknown): void; warn(message: string, data?: unknown): void };
    /** The workspace root: notify's paths are made relative to it for the globs. */
    root: string;
    activity?: { append(what: AppendedEvent): unknown };
    /** The language servers, whose diagnostics feed onDiagnosticsStateChange. */
    lsp?: Pick<LspService, "onChange" | "diagnosticsFor">;
    /** Whether a tool of this bridge (by its own name) only reads, for the loop guard. */
    bridgeReadOnly?: (tool: string) => boolean;
  },
): Promise<Automation> {
  const engine = await loadEngine(runtime, opts);
  const saves = createSaveGate();
  const stopBus = engine === undefined ? () => {} : connectBus(opts.bus, engine, { saves });
  const lifetime = new AbortController();
  let stopCommits = () => {};
  let outsideCommits: OutsideCommits | undefined;
  const stopToolUses =
    engine === undefined
      ? () => {}
      : (opts.tasks.onToolActivity?.((task, activity) => engine.noteToolActivity(task, activity)) ?? (() => {}));
  // getDiagnostics' answers cost nothing to follow; reading the servers' pushes again is done only for a hook.
  const states = new DiagnosticsStates(opts.bus);
  const stopChecked = watchCheckedDiagnostics(opts.bus, states);
  const stopPushes =
    engine?.listensTo("onDiagnosticsStateChange") === true && opts.lsp !== undefined ? watchDiagnosticsState(opts.lsp, states) : () => {};
  return {
    engine,
    notify(body) {
      const parsed = parseNotify(body, { root: opts.root });
      if (!parsed.ok) return parsed;
      const origin = parsed.events[0]?.origin;
      opts.activity?.append({
        source: "automation",
        event: "notify.received",
        detail: {
          event: parsed.event,
          hooks: parsed.events.map((e) => e.hook).join(","),
          ...(origin?.taskId === undefined ? {} : { fromTask: origin.taskId }),
        },
      });
      // A save VS Code already reported (the bus's file.saved) is not a second save.
      const saved = parsed.events.find((e) => e.hook === "onFileSave")?.file;
      const repeated = saved !== undefined && !saves.admit(saved, "notify");
      if (saved !== undefined && !repeated && !saved.startsWith("/")) opts.bus.publish("file.saved", { file: saved, via: "notify" });
      const events = repeated ? parsed.events.filter((e) => e.hook !== "onFileSave" && e.hook !== "onRecipeSave") : parsed.events;
      const decisions = engine === undefined ? [] : events.flatMap((e) => engine.handle(e));
      return { ok: true, event: parsed.event, decisions };
    },
    async followCommits(gitContext) {
      const context = () =>
        gitContext({ session: "automation:commits", executables: ["git"], signal: lifetime.signal, progress: () => {}, log: () => {} });
      const stop = await watchCommits({ fs: runtime.fs, bus: opts.bus, log: opts.log, gitContext: context });
      if (lifetime.signal.aborted) stop();
      else stopCommits = stop;
      outsideCommits = await outsideCommitsSeen(context(), runtime.fs);
      if (!outsideCommits.seen) {
        const message = `automation: commits made outside the bridge are not seen, so onGitCommit fires for gitCommit's only: ${outsideCommits.reason}. Fix: ${outsideCommits.fix}`;
        if (engine?.listensTo("onGitCommit") === true) opts.log.warn(message);
        else opts.log.info(message);
      }
    },
    status: () => (outsideCommits === undefined ? {} : { outsideCommits }),
    stop() {
      lifetime.abort();
      stopCommits();
      stopChecked();
      stopPushes();
      stopToolUses();
      stopBus();
      engine?.stop();
    },
  };
}

async function loadEngine(
  runtime: Pick<Runtime, "fs">,
  opts: Parameters<typeof startAutomation>[1],
): Promise<AutomationEngine | undefined> {
  if (opts.policyPath === undefined) return undefined;
  let text: string;
  try {
    text = await runtime.fs.readTextFile(opts.policyPath);
  } catch (err) {
    throw new BridgeError("config_invalid", `--automation-policy ${opts.policyPath}: cannot read it: ${errorMessage(err)}`, { cause: err });
  }
  const policy = parsePolicy(text, { source: opts.policyPath, warn: (message) => opts.log.warn(message) });
  if (opts.tasks.unavailable !== undefined) {
    opts.log.warn(`automation: ${policy.hooks.length} hook(s) loaded, but no task can run: ${opts.tasks.unavailable.reason}`);
  }
  const engine = new AutomationEngine(policy, {
    tasks: opts.tasks,
    root: opts.root,
    ...(opts.bridgeReadOnly && { bridgeReadOnly: opts.bridgeReadOnly }),
    log: (decision) => {
      opts.log.info("automation", decision);
      opts.activity?.append({ source: "automation", event: `hook.${decision.decision}`, detail: { ...decision } });
    },
  });
  opts.log.info(
    `automation: ${policy.hooks.map((h) => h.name).join(", ") || "no hooks"} (at most ${policy.maxTasksPerHour} tasks an hour)`,
  );
  return engine;
}
