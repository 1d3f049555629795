// Automation at bridge start: the policy file read and checked (a bad one stops the start with the
// field's path), the engine subscribed to the event bus. Without --automation-policy nothing listens.
import type { Runtime } from "../../ports/runtime.ts";
import { BridgeError, errorMessage } from "../../errors.ts";
import type { EventBus } from "../../capabilities/events/event-bus.ts";
import type { ClaudeTasks } from "../../capabilities/claude/claude-tasks.ts";
import { AutomationEngine } from "./automation-engine.ts";
import { connectBus } from "./bus-events.ts";
import { parsePolicy } from "./policy.ts";

export interface Automation {
  readonly engine: AutomationEngine;
  stop(): void;
}

export async function startAutomation(
  runtime: Pick<Runtime, "fs">,
  opts: {
    policyPath: string | undefined;
    bus: EventBus;
    tasks: ClaudeTasks;
    log: { info(message: string, data?: unknown): void; warn(message: string, data?: unknown): void };
  },
): Promise<Automation | undefined> {
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
  const engine = new AutomationEngine(policy, { tasks: opts.tasks, log: (decision) => opts.log.info("automation", decision) });
  const stop = connectBus(opts.bus, engine);
  opts.log.info(
    `automation: ${policy.hooks.map((h) => h.name).join(", ") || "no hooks"} (at most ${policy.maxTasksPerHour} tasks an hour)`,
  );
  return { engine, stop };
}
