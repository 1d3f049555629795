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
import { watchDiagnosticsState } from "./diagnostics-events.ts";
import type { LspService } from "../../lsp/lsp-service-types.ts";
import { parseNotify } from "./notify-events.ts";
import { parsePolicy } from "./policy.ts";

export type NotifyOutcome = { ok: true; event: string; decisions: AutomationDecision[] } | { ok: false; message: string };

export interface Automation {
  /** Undefined without a policy. */
  readonly engine: AutomationEngine | undefined;
  /** A /notify body: checked, shown in the activity log, fed to the hooks. */
  notify(body: unknown): NotifyOutcome;
  stop(): void;
}

export async function startAutomation(
  runtime: Pick<Runtime, "fs">,
  opts: {
    policyPath: string | undefined;
    bus: EventBus;
    tasks: ClaudeTasks;
    log: { info(message: string, data?: unknown): void; warn(message: string, data?: unknown): void };
    /** The workspace root: notify's paths are made relative to it for the globs. */
    root: string;
    activity?: { append(what: AppendedEvent): unknown };
    /** The language servers, whose diagnostics feed onDiagnosticsStateChange. */
    lsp?: Pick<LspService, "onChange" | "diagnosticsFor">;
  },
): Promise<Automation> {
  const engine = await loadEngine(runtime, opts);
  const stopBus = engine === undefined ? () => {} : connectBus(opts.bus, engine);
  const stopDiagnostics =
    engine?.listensTo("onDiagnosticsStateChange") === true && opts.lsp !== undefined ? watchDiagnosticsState(opts.lsp, opts.bus) : () => {};
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
      const decisions = engine === undefined ? [] : parsed.events.flatMap((e) => engine.handle(e));
      return { ok: true, event: parsed.event, decisions };
    },
    stop() {
      stopDiagnostics();
      stopBus();
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
