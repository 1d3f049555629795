// The loop guard with tool calls attributed: a hook task's Claude Code calls bridge tools whose events
// carry the MCP session and Claude Code's tool-use id; the task's stream announces those ids (before
// or after the event, they race). Only that task's events are held back; another client's fire.
// Also the bus's debug.session and file.saved feeding onDebugSession and onFileSave, one save once.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { parseNotify } from "../../../../src/services/automation/notify-events.ts";
import { setup } from "./automation-test-setup.ts";

const commit = (n: number) => ({ hash: `abc${n}`, branch: "main", subject: `change ${n}`, files: 1 });
const HOOK_TASK = "task-00000001";

describe("the loop guard with attributed tool calls", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("holds back a burst of a hook task's own calls and lets another client's calls fire", () => {
    const t = setup({ maxTasksPerHour: 1000, onGitCommit: { prompt: "Review {{hash}}", cooldownMs: 5000 } }, { attributionWaitMs: 3000 });
    // An unattributed commit (a terminal's) starts the hook task.
    t.bus.publish("git.commit", commit(0));
    expect(t.submitted).toHaveLength(1);
    const fired = () => t.decisions.filter((d) => d.decision === "fired").length;
    const ownSkips = () => t.decisions.filter((d) => d.reason === `loop guard: caused by ${HOOK_TASK}, a task a hook started`).length;
    for (let i = 1; i <= 100; i++) {
      t.advance(6000);
      if (i % 2 === 0) {
        // The hook task's call: its stream announces the id first on even turns, after the event on others.
        const toolUseId = `toolu_hook_${i}`;
        const announce = () =>
          t.engine.noteToolActivity(HOOK_TASK, { kind: "use", id: toolUseId, name: "mcp__bridge__gitCommit", input: {} });
        if (i % 4 === 0) announce();
        t.bus.publish("git.commit", commit(i), { session: "mcp-hook", toolUseId });
        if (i % 4 !== 0) announce();
      } else {
        // The user's Claude Code (its ids are never in a hook task's stream): decided when the wait ends.
        t.bus.publish("git.commit", commit(i), { session: "mcp-user", toolUseId: `toolu_user_${i}` });
        vi.advanceTimersByTime(3000);
      }
    }
    expect(ownSkips()).toBe(50);
    expect(fired()).toBe(1 + 50);
    // Once a call of the session is the task's, its later calls are too, even before their id is announced.
    t.advance(6000);
    t.bus.publish("git.commit", commit(200), { session: "mcp-hook", toolUseId: "toolu_unannounced" });
    expect(ownSkips()).toBe(51);
    // A client that sends no tool-use id is not a hook task's Claude Code: it fires at once.
    t.advance(6000);
    expect(t.bus.publish("git.commit", commit(201), { session: "mcp-other" })).toBeUndefined();
    expect(t.decisions.at(-1)).toMatchObject({ decision: "fired" });
    // An event waiting for attribution is decided as soon as no hook task runs (its stream was read to the end).
    t.advance(6000);
    t.bus.publish("git.commit", commit(202), { session: "mcp-user", toolUseId: "toolu_user_late" });
    const before = t.decisions.length;
    for (const d of t.decisions) if (d.taskId !== undefined) t.engine.taskFinished(d.taskId);
    expect(t.decisions.length).toBe(before + 1);
    expect(t.decisions.at(-1)).toMatchObject({ decision: "fired", event: "git.commit" });
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe("debug sessions and saves from the bus", () => {
  it("feeds onDebugSession by phase, with the program's name fenced", () => {
    const t = setup({ onDebugSession: { prompt: "Debugging {{name}} ({{language}})", phase: "end" } });
    t.bus.publish("debug.session", { phase: "start", id: "s1", language: "python", name: "app.py", via: "headless" });
    expect(t.submitted).toHaveLength(0);
    t.bus.publish("debug.session", { phase: "end", id: "s1", language: "python", name: "app.py", via: "vscode", exitCode: 3 });
    expect(t.submitted).toHaveLength(1);
    expect(t.submitted[0]?.trigger).toBe("onDebugSession");
    expect(t.submitted[0]?.prompt).toMatch(/<untrusted-data id="[0-9a-f]{12}" source="name">\n[^\n]*\napp\.py\n<\/untrusted-data/);
  });

  it("fires onFileSave once for a save VS Code and Claude Code both report, and twice for two saves", () => {
    const t = setup({ onFileSave: { prompt: "Saved {{file}}", patterns: ["src/**"], cooldownMs: 5000 } });
    const notify = (file: string) => {
      const parsed = parseNotify(
        { event: "PostToolUse", session_id: "user", tool_name: "Edit", tool_input: { file_path: `/ws/${file}` } },
        { root: "/ws" },
      );
      if (!parsed.ok) throw new Error(parsed.message);
      // As start-automation does: the gate first, then the engine.
      return parsed.events.filter((e) => e.file === undefined || t.saves.admit(e.file, "notify")).flatMap((e) => t.engine.handle(e));
    };
    t.bus.publish("file.saved", { file: "src/a.ts", via: "vscode" });
    expect(notify("src/a.ts")).toEqual([]);
    expect(t.submitted).toHaveLength(1);
    // The other order, another file.
    expect(notify("src/b.ts")).toMatchObject([{ decision: "fired", file: "src/b.ts" }]);
    t.bus.publish("file.saved", { file: "src/b.ts", via: "vscode" });
    expect(t.submitted).toHaveLength(2);
    // The bus's copy of a notify save is not fed again.
    t.bus.publish("file.saved", { file: "src/c.ts", via: "notify" });
    expect(t.submitted).toHaveLength(2);
    // Two VS Code saves of one file are two saves: both reach the hooks, the second within the
    // first's cooldown (the user's saves fire while the hook tasks they started run).
    t.advance(6000);
    t.bus.publish("file.saved", { file: "src/a.ts", via: "vscode" });
    t.bus.publish("file.saved", { file: "src/a.ts", via: "vscode" });
    expect(t.decisions.slice(-2)).toMatchObject([
      { decision: "fired", file: "src/a.ts" },
      { decision: "skipped", file: "src/a.ts", reason: expect.stringMatching(/^cooldown: /) },
    ]);
  });
});
