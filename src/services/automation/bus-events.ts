// The event bus's events as automation events: which hook each one feeds and the values its prompt
// template may use, and who caused it when a tool call published it (the loop guard). Claude Code's
// own events (saves, compaction, cwd, ...) come through /notify (notify-events.ts) instead; a save
// comes from both, and the save gate keeps one of the two.
import type { CallOrigin, EventBus } from "../../capabilities/events/event-bus.ts";
import type { AutomationEngine, AutomationEvent, EventOrigin } from "./automation-engine.ts";
import type { SaveGate } from "./save-gate.ts";

const untrusted = (text: string) => ({ text, trusted: false });
const trusted = (text: string | number) => ({ text: String(text), trusted: true });

/** A tool call's origin as the engine's; undefined for events no call published. */
function originOf(call: CallOrigin | undefined): EventOrigin | undefined {
  return call === undefined
    ? undefined
    : { mcpSession: call.session, ...(call.toolUseId === undefined ? {} : { toolUseId: call.toolUseId }) };
}

/** Subscribes the engine to the bus; returns the function that unsubscribes it all. */
export function connectBus(bus: EventBus, engine: AutomationEngine, opts: { saves: SaveGate }): () => void {
  const feed = (event: AutomationEvent, call: CallOrigin | undefined) => {
    const origin = originOf(call);
    engine.handle(origin === undefined ? event : { ...event, origin });
  };
  const offs = [
    bus.subscribe("git.commit", (e, call) =>
      feed(
        {
          hook: "onGitCommit",
          event: "git.commit",
          values: {
            hash: trusted(e.hash),
            branch: untrusted(e.branch ?? "(detached)"),
            subject: untrusted(e.subject),
            files: trusted(e.files),
          },
        },
        call,
      ),
    ),
    bus.subscribe("git.push", (e, call) =>
      feed({ hook: "onGitPush", event: "git.push", values: { remote: untrusted(e.remote), branch: untrusted(e.branch) } }, call),
    ),
    bus.subscribe("git.pull", (e, call) =>
      feed(
        {
          hook: "onGitPull",
          event: "git.pull",
          values: { remote: untrusted(e.remote ?? ""), branch: untrusted(e.branch ?? ""), head: trusted(e.head) },
        },
        call,
      ),
    ),
    bus.subscribe("git.checkout", (e, call) =>
      feed(
        {
          hook: "onBranchCheckout",
          event: "git.checkout",
          values: { branch: untrusted(e.branch), previous: untrusted(e.previous ?? ""), created: trusted(String(e.created)) },
        },
        call,
      ),
    ),
    bus.subscribe("github.pullRequest", (e, call) => {
      if (e.action === "created")
        feed(
          {
            hook: "onPullRequest",
            event: "github.pullRequest",
            values: { url: untrusted(e.url), number: trusted(e.number), repo: untrusted(e.repo) },
          },
          call,
        );
    }),
    bus.subscribe("test.run", (e, call) => {
      const failures = e.failures.map(
        (f) => `${f.test}${f.file === undefined ? "" : ` (${f.file}${f.line === undefined ? "" : `:${f.line}`})`}: ${f.message}`,
      );
      engine.noteTestRun(e.outcome);
      feed(
        {
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
        },
        call,
      );
    }),
    bus.subscribe("diagnostics.state", (e, call) =>
      feed(
        {
          hook: "onDiagnosticsStateChange",
          event: "diagnostics.state",
          file: e.file,
          state: e.state,
          diagnostics: { count: e.count, worstSeverity: e.worstSeverity },
          values: { file: untrusted(e.file), state: trusted(e.state), errors: trusted(e.errors), diagnostics: untrusted(e.lines) },
        },
        call,
      ),
    ),
    bus.subscribe("debug.session", (e, call) =>
      feed(
        {
          hook: "onDebugSession",
          event: "debug.session",
          phase: e.phase,
          values: {
            phase: trusted(e.phase),
            session: untrusted(e.id),
            language: untrusted(e.language),
            name: untrusted(e.name),
            via: trusted(e.via),
            exitCode: trusted(e.exitCode === undefined ? "" : e.exitCode),
          },
        },
        call,
      ),
    ),
    // /notify's saves reach the engine with their Claude Code origin (start-automation.ts); the
    // bus's copy of them is for other listeners.
    bus.subscribe("file.saved", (e, call) => {
      if (e.via === "notify" || !opts.saves.admit(e.file, e.via)) return;
      const save: AutomationEvent = { hook: "onFileSave", event: "file.saved", file: e.file, values: { file: untrusted(e.file) } };
      feed(save, call);
      if (/\.ya?ml$/i.test(e.file)) feed({ ...save, hook: "onRecipeSave" }, call);
    }),
    bus.subscribe("claude.task", (e) => {
      const byHook = engine.taskFinished(e.id);
      // A hook's own task never starts onTaskSuccess (the loop guard); another's is named by its id, so it fires while a hook task runs.
      if (e.status === "done" && !byHook)
        engine.handle({
          hook: "onTaskSuccess",
          event: "claude.task",
          origin: { taskId: e.id },
          values: { taskId: trusted(e.id), trigger: trusted(e.trigger) },
        });
    }),
  ];
  return () => {
    for (const off of offs) off();
  };
}
