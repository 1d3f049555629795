// The automation engine wired as the bridge wires it (bus, save gate), with an injected clock and a
// recording task queue whose task n runs as Claude Code session session-<n>.
import type { ClaudeTaskRequest } from "../../../../src/capabilities/claude/claude-tasks.ts";
import { createEventBus } from "../../../../src/capabilities/events/event-bus.ts";
import { AutomationEngine, type AutomationDecision } from "../../../../src/services/automation/automation-engine.ts";
import { connectBus } from "../../../../src/services/automation/bus-events.ts";
import { parsePolicy } from "../../../../src/services/automation/policy.ts";
import { createSaveGate } from "../../../../src/services/automation/save-gate.ts";

export function setup(
  policyJson: unknown,
  opts: { attributionWaitMs?: number; root?: string; bridgeReadOnly?: (tool: string) => boolean } = {},
) {
  let clock = 1_000_000;
  const submitted: ClaudeTaskRequest[] = [];
  const decisions: AutomationDecision[] = [];
  const warnings: string[] = [];
  const policy = parsePolicy(JSON.stringify(policyJson), { source: "policy.json", warn: (m) => warnings.push(m) });
  const engine = new AutomationEngine(policy, {
    tasks: {
      // Each task's Claude Code session is session-<n>, as its stream would say.
      get: (id) => {
        const n = Number(id.slice(5));
        return n >= 1 && n <= submitted.length
          ? { id, status: "running", trigger: "", promptPreview: "", timeoutMs: 1, createdAt: 0, output: [], sessionId: `session-${n}` }
          : undefined;
      },
      submit: (request) => {
        submitted.push(request);
        return {
          id: `task-${String(submitted.length).padStart(8, "0")}`,
          status: "pending",
          trigger: request.trigger,
          promptPreview: "",
          timeoutMs: 1,
          createdAt: 0,
          output: [],
        };
      },
    },
    log: (d) => decisions.push(d),
    now: () => clock,
    ...opts,
  });
  const bus = createEventBus((_, err) => {
    throw err;
  });
  const saves = createSaveGate({ now: () => clock });
  connectBus(bus, engine, { saves });
  return { engine, bus, saves, submitted, decisions, warnings, advance: (ms: number) => (clock += ms) };
}
