// The automation engine: an event comes in (from the event bus, or from Claude Code's hooks through
// /notify), each hook of the policy that listens to it is checked in order: its filter (state, phase,
// test filter, file globs), the loop guard, its when-conditions, its cooldown (per hook and file, at
// least 5 s), and the rolling 60-minute cap; then its prompt is rendered and the task submitted.
// The loop guard: an event caused by a task a hook started (a notify from inside it, named by its task
// id or its Claude Code session; a tool call of its Claude Code, named by the tool-use id its stream
// announced, and every later call of that MCP session) never starts another, while events from
// elsewhere still fire. A tool call's event whose tool-use id no hook task has announced yet waits
// for the announcement (the stream line and the call race) until a bound, or until no hook task
// runs. An event no call published (a watcher's, VS Code's) and Claude Code's FileChanged (reported
// for every writer) are judged by what the hook tasks were doing when it happened (hook-task-actions.ts):
// the user's own saves and commits fire while a hook task runs. Every decision is logged in one
// stable shape ({ hook, event, decision: "fired" | "skipped", reason?, taskId?, file? }) for the activity log.
import { compileGlob, type GlobMatcher } from "../../lib/glob/index.ts";
import { ToolError, errorMessage } from "../../errors.ts";
import type { ClaudeTasks } from "../../capabilities/claude/claude-tasks.ts";
import type { AutomationPolicy } from "./policy.ts";
import type { Hook, HookName } from "./policy-schema.ts";
import { renderPrompt, type TemplateValue } from "./prompt-template.ts";
import { HookTaskActions } from "./hook-task-actions.ts";
import type { ToolActivity } from "../claude-tasks/output-lines.ts";

const HOUR_MS = 3_600_000;
/** Hook tasks remembered for the loop guard after they finished (a late notify of theirs). */
const HOOK_TASKS_REMEMBERED = 200;
/** Tool-use ids and MCP sessions of hook tasks remembered (a burst of calls stays attributed). */
const HOOK_CALLS_REMEMBERED = 2_000;
/** How long a tool call's event waits for a hook task's stream to claim its tool-use id. */
const ATTRIBUTION_WAIT_MS = 3_000;

/** Who caused an event, when the bridge can tell. */
export interface EventOrigin {
  /** The bridge task it came from (CLAUDE_IDE_BRIDGE_TASK_ID in the task's environment). */
  taskId?: string;
  /** The Claude Code session it came from (a hook input's session_id). */
  claudeSessionId?: string;
  /** The MCP session whose tool call published it. */
  mcpSession?: string;
  /** Claude Code's tool-use id of that call. */
  toolUseId?: string;
}

export interface AutomationEvent {
  hook: HookName;
  /** What happened, for the log ("git.commit"). */
  event: string;
  /** The file it concerns (per-file cooldown, globs). */
  file?: string;
  /** Discriminators the unified hooks filter on. */
  state?: "error" | "cleared";
  phase?: "pre" | "post" | "start" | "end";
  testOutcome?: "pass" | "fail" | "pass-after-fail";
  diagnostics?: { count: number; worstSeverity: "error" | "warning" | "information" | "hint" };
  /** Who caused it; undefined when the bridge cannot tell. */
  origin?: EventOrigin;
  values: Record<string, TemplateValue>;
}

export interface AutomationDecision {
  hook: HookName;
  event: string;
  decision: "fired" | "skipped";
  reason?: string;
  taskId?: string;
  file?: string;
}

const SEVERITY_RANK = { error: 0, warning: 1, information: 2, hint: 3 } as const;

export class AutomationEngine {
  private readonly lastFired = new Map<string, number>();
  private readonly fires: number[] = [];
  /** Every task a hook started (the newest HOOK_TASKS_REMEMBERED), and those of them still running. */
  private readonly hookTasks = new Set<string>();
  private readonly runningHookTasks = new Set<string>();
  /** Tool-use ids a hook task's stream announced, and MCP sessions seen making such calls: the task behind each. */
  private readonly hookToolUses = new Map<string, string>();
  private readonly hookSessions = new Map<string, string>();
  /** Tool calls' events waiting for a hook task to claim them. */
  private readonly awaiting = new Set<{ event: AutomationEvent; timer: ReturnType<typeof setTimeout> }>();
  private lastTestStatus: "pass" | "fail" | undefined;
  private readonly globs = new Map<Hook, GlobMatcher[]>();
  private readonly actions: HookTaskActions;

  constructor(
    private readonly policy: AutomationPolicy,
    private readonly opts: {
      tasks: Pick<ClaudeTasks, "submit" | "get">;
      log: (decision: AutomationDecision) => void;
      now?: () => number;
      attributionWaitMs?: number;
      /** The workspace root: tools name files by absolute path, events by workspace-relative ones. */
      root?: string;
      /** Whether a tool of this bridge (by its own name) only reads: a task calling one caused nothing. */
      bridgeReadOnly?: (tool: string) => boolean;
    },
  ) {
    this.actions = new HookTaskActions({
      root: opts.root,
      now: () => this.now(),
      ...(opts.bridgeReadOnly && { bridgeReadOnly: opts.bridgeReadOnly }),
    });
    for (const { hook } of policy.hooks) if (hook.patterns !== undefined) this.globs.set(hook, hook.patterns.map(compileGlob));
  }

  /** Whether the policy has an enabled hook of this name (what is not listened to need not be watched). */
  listensTo(name: HookName): boolean {
    return this.policy.hooks.some((h) => h.name === name);
  }

  /** A test run finished: remembered for testRunnerLastStatus. */
  noteTestRun(outcome: "pass" | "fail" | "pass-after-fail"): void {
    this.lastTestStatus = outcome === "fail" ? "fail" : "pass";
  }

  /** A task finished: it no longer holds the loop guard. Answers whether a hook started it. */
  taskFinished(id: string): boolean {
    const byHook = this.runningHookTasks.delete(id) || this.hookTasks.has(id);
    this.actions.taskEnded(id);
    // Its whole stream has been read: an event no running hook task can claim is nobody's.
    if (this.runningHookTasks.size === 0) this.release(() => true);
    return byHook;
  }

  /** A task's stream announced a tool use or its result: when a hook started the task, events of that call are its own. */
  noteToolActivity(taskId: string, activity: ToolActivity): void {
    if (!this.hookTasks.has(taskId)) return;
    this.actions.note(taskId, activity);
    if (activity.kind !== "use") return;
    remember(this.hookToolUses, activity.id, taskId);
    this.release((event) => event.origin?.toolUseId === activity.id);
  }

  /** Decides the events still waiting, at once (the bridge stops). */
  stop(): void {
    this.release(() => true);
  }

  /** The decisions taken now; a tool call's event that may be a hook task's is decided when that is known (logged then). */
  handle(event: AutomationEvent): AutomationDecision[] {
    if (!this.awaitsAttribution(event)) return this.decideAll(event);
    const waiting = {
      event,
      timer: setTimeout(() => this.release((e) => e === event), this.opts.attributionWaitMs ?? ATTRIBUTION_WAIT_MS),
    };
    this.awaiting.add(waiting);
    return [];
  }

  private awaitsAttribution(event: AutomationEvent): boolean {
    return (
      event.origin?.toolUseId !== undefined &&
      this.runningHookTasks.size > 0 &&
      this.listensTo(event.hook) &&
      this.hookTaskBehind(event.origin) === undefined
    );
  }

  private release(which: (event: AutomationEvent) => boolean): void {
    for (const waiting of [...this.awaiting]) {
      if (!which(waiting.event)) continue;
      clearTimeout(waiting.timer);
      this.awaiting.delete(waiting);
      this.decideAll(waiting.event);
    }
  }

  private decideAll(event: AutomationEvent): AutomationDecision[] {
    const decisions: AutomationDecision[] = [];
    for (const [index, { name, hook }] of this.policy.hooks.entries()) {
      if (name !== event.hook || !this.matches(hook, event)) continue;
      const decision = this.decide(hook, event, index);
      this.opts.log(decision);
      decisions.push(decision);
    }
    return decisions;
  }

  /** `index`: the hook's place in the policy, so two entries of one hook (error and cleared) keep their own cooldowns. */
  private decide(hook: Hook, event: AutomationEvent, index: number): AutomationDecision {
    const base = { hook: event.hook, event: event.event, ...(event.file === undefined ? {} : { file: event.file }) };
    const skip = (reason: string): AutomationDecision => ({ ...base, decision: "skipped", reason });
    const now = this.now();
    const cause = this.hookTaskBehind(event.origin);
    if (cause !== undefined) return skip(`loop guard: caused by ${cause}, a task a hook started`);
    // No caller named (a watcher's, VS Code's), or a session reporting a change every writer makes.
    if (event.origin === undefined || event.hook === "onFileChanged") {
      const actor = this.actions.actorOf(event, this.runningHookTasks);
      if (actor !== undefined) return skip(`loop guard: ${actor}`);
    }
    const unmet = this.unmetCondition(hook, event);
    if (unmet !== undefined) return skip(`when: ${unmet}`);
    const key = `${index}\0${event.file ?? ""}`;
    const last = this.lastFired.get(key);
    if (last !== undefined && now - last < hook.cooldownMs) return skip(`cooldown: ${hook.cooldownMs - (now - last)} ms left`);
    while (this.fires.length > 0 && now - (this.fires[0] ?? 0) >= HOUR_MS) this.fires.shift();
    if (this.fires.length >= this.policy.maxTasksPerHour)
      return skip(`hourly cap: ${this.policy.maxTasksPerHour} tasks in the last 60 minutes`);
    try {
      const task = this.opts.tasks.submit({
        prompt: renderPrompt(hook.prompt, event.values),
        timeoutMs: hook.timeoutMs ?? 300_000,
        trigger: event.hook,
        ...(hook.model === undefined ? {} : { model: hook.model }),
        ...(hook.effort === undefined ? {} : { effort: hook.effort }),
        ...(hook.systemPrompt === undefined ? {} : { systemPrompt: hook.systemPrompt }),
      });
      this.lastFired.set(key, now);
      this.fires.push(now);
      this.remember(task.id);
      return { ...base, decision: "fired", taskId: task.id };
    } catch (err) {
      return skip(`not submitted: ${err instanceof ToolError ? err.message : errorMessage(err)}`);
    }
  }

  private now(): number {
    return (this.opts.now ?? Date.now)();
  }

  /** The hook task that caused an event from `origin`, if one did. */
  private hookTaskBehind(origin: EventOrigin | undefined): string | undefined {
    if (origin?.taskId !== undefined && this.hookTasks.has(origin.taskId)) return origin.taskId;
    const byCall = this.hookTaskOfCall(origin);
    if (byCall !== undefined) return byCall;
    const session = origin?.claudeSessionId;
    if (session === undefined) return undefined;
    for (const id of this.hookTasks) if (this.opts.tasks.get(id)?.sessionId === session) return id;
    return undefined;
  }

  /** By the call's tool-use id (then its MCP session is the task's too), or by its MCP session. */
  private hookTaskOfCall(origin: EventOrigin | undefined): string | undefined {
    const byToolUse = origin?.toolUseId === undefined ? undefined : this.hookToolUses.get(origin.toolUseId);
    if (byToolUse !== undefined && origin?.mcpSession !== undefined) remember(this.hookSessions, origin.mcpSession, byToolUse);
    return byToolUse ?? (origin?.mcpSession === undefined ? undefined : this.hookSessions.get(origin.mcpSession));
  }

  private remember(id: string): void {
    this.hookTasks.add(id);
    this.runningHookTasks.add(id);
    for (const old of this.hookTasks) {
      if (this.hookTasks.size <= HOOK_TASKS_REMEMBERED) break;
      this.hookTasks.delete(old);
    }
  }

  private matches(hook: Hook, event: AutomationEvent): boolean {
    if (hook.state !== undefined && event.state !== undefined && hook.state !== event.state) return false;
    if (hook.phase !== undefined && event.phase !== undefined && hook.phase !== event.phase) return false;
    if (hook.filter !== undefined && event.testOutcome !== undefined) {
      if (hook.filter === "failure" && event.testOutcome !== "fail") return false;
      if (hook.filter === "pass-after-fail" && event.testOutcome !== "pass-after-fail") return false;
    }
    const globs = this.globs.get(hook);
    if (globs !== undefined) {
      const file = event.file;
      if (file === undefined || !globs.some((g) => g.matches(g.basenameOnly ? (file.split("/").pop() ?? file) : file))) return false;
    }
    return true;
  }

  private unmetCondition(hook: Hook, event: AutomationEvent): string | undefined {
    const when = hook.when;
    if (when === undefined) return undefined;
    if (when.testRunnerLastStatus !== undefined && this.lastTestStatus !== when.testRunnerLastStatus)
      return `the last test run is ${this.lastTestStatus ?? "unknown"}, not ${when.testRunnerLastStatus}`;
    if (when.minDiagnosticCount !== undefined || when.diagnosticsMinSeverity !== undefined) {
      const d = event.diagnostics;
      if (d === undefined) return "the event carries no diagnostics";
      if (when.minDiagnosticCount !== undefined && d.count < when.minDiagnosticCount)
        return `${d.count} diagnostic(s), fewer than ${when.minDiagnosticCount}`;
      if (when.diagnosticsMinSeverity !== undefined && SEVERITY_RANK[d.worstSeverity] > SEVERITY_RANK[when.diagnosticsMinSeverity])
        return `the worst diagnostic is ${d.worstSeverity}, below ${when.diagnosticsMinSeverity}`;
    }
    return undefined;
  }
}

/** Sets key to value as the newest entry, forgetting the oldest past HOOK_CALLS_REMEMBERED. */
function remember(map: Map<string, string>, key: string, value: string): void {
  map.delete(key);
  map.set(key, value);
  for (const old of map.keys()) {
    if (map.size <= HOOK_CALLS_REMEMBERED) break;
    map.delete(old);
  }
}
