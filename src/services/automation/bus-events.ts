// The event bus's events as automation events: which hook each one feeds and the values its prompt
// template may use. Claude Code's own events (saves, compaction, cwd, ...) come through /notify
// (notify-events.ts) instead.
import type { EventBus } from "../../capabilities/events/event-bus.ts";
import type { AutomationEngine, AutomationEvent } from "./automation-engine.ts";

const untrusted = (text: string) => ({ text, trusted: false });
const trusted = (text: string | number) => ({ text: String(text), trusted: true });

/** Subscribes the engine to the bus; returns the function that unsubscribes it all. */
export function connectBus(bus: EventBus, engine: AutomationEngine): () => void {
  const feed = (event: AutomationEvent) => void engine.handle(event);
  const offs = [
    bus.subscribe("git.commit", (e) =>
      feed({
        hook: "onGitCommit",
        event: "git.commit",
        values: {
          hash: trusted(e.hash),
          branch: untrusted(e.branch ?? "(detached)"),
          subject: untrusted(e.subject),
          files: trusted(e.files),
        },
      }),
    ),
    bus.subscribe("git.push", (e) =>
      feed({ hook: "onGitPush", event: "git.push", values: { remote: untrusted(e.remote), branch: untrusted(e.branch) } }),
    ),
    bus.subscribe("git.pull", (e) =>
      feed({
        hook: "onGitPull",
        event: "git.pull",
        values: { remote: untrusted(e.remote ?? ""), branch: untrusted(e.branch ?? ""), head: trusted(e.head) },
      }),
    ),
    bus.subscribe("git.checkout", (e) =>
      feed({
        hook: "onBranchCheckout",
        event: "git.checkout",
        values: { branch: untrusted(e.branch), previous: untrusted(e.previous ?? ""), created: trusted(String(e.created)) },
      }),
    ),
    bus.subscribe("github.pullRequest", (e) => {
      if (e.action === "created")
        feed({
          hook: "onPullRequest",
          event: "github.pullRequest",
          values: { url: untrusted(e.url), number: trusted(e.number), repo: untrusted(e.repo) },
        });
    }),
    bus.subscribe("test.run", (e) => {
      const failures = e.failures.map(
        (f) => `${f.test}${f.file === undefined ? "" : ` (${f.file}${f.line === undefined ? "" : `:${f.line}`})`}: ${f.message}`,
      );
      engine.noteTestRun(e.outcome);
      feed({
        hook: "onTestRun",
        event: "test.run",
        testOutcome: e.outcome,
        values: {
          runner: trusted(e.runner),
          outcome: trusted(e.outcome),
          passed: trusted(e.passed),
          failed: trusted(e.failed),
          failures: untrusted(failures.join("\n")),
        },
      });
    }),
    bus.subscribe("diagnostics.state", (e) =>
      feed({
        hook: "onDiagnosticsStateChange",
        event: "diagnostics.state",
        file: e.file,
        state: e.state,
        diagnostics: { count: e.count, worstSeverity: e.worstSeverity },
        values: { file: untrusted(e.file), state: trusted(e.state), errors: trusted(e.errors), diagnostics: untrusted(e.lines) },
      }),
    ),
    bus.subscribe("claude.task", (e) => {
      const byHook = engine.taskFinished(e.id);
      // A hook's own task never starts onTaskSuccess (the loop guard).
      if (e.status === "done" && !byHook)
        feed({ hook: "onTaskSuccess", event: "claude.task", values: { taskId: trusted(e.id), trigger: trusted(e.trigger) } });
    }),
  ];
  return () => {
    for (const off of offs) off();
  };
}
