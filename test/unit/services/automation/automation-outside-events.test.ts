// The loop guard for events no tool call published (the reflog watcher's commits, VS Code's saves and
// debug sessions, the language servers' diagnostics) and for Claude Code's FileChanged, which a user's
// session reports for any writer: a hook task's own actions, as its stream announced them, hold
// back what they may have caused, while the user's own saves and commits fire during the task.
import { describe, expect, it } from "vitest";
import { ACTED_WINDOW_MS } from "../../../../src/services/automation/hook-task-actions.ts";
import { parseNotify } from "../../../../src/services/automation/notify-events.ts";
import { setup } from "./automation-test-setup.ts";

const HOOK_TASK = "task-00000001";
const commit = (subject: string) => ({ hash: "abc1234567", branch: "main", subject, files: 1 });
const diagnostics = (file: string) => ({
  file,
  state: "error" as const,
  count: 1,
  errors: 1,
  worstSeverity: "error" as const,
  lines: `${file}:1:1: broken`,
});

function started(t: ReturnType<typeof setup>) {
  return {
    use: (id: string, name: string, input: Record<string, unknown> = {}) =>
      t.engine.noteToolActivity(HOOK_TASK, { kind: "use", id, name, input }),
    result: (id: string) => t.engine.noteToolActivity(HOOK_TASK, { kind: "result", id }),
  };
}

const POLICY = {
  maxTasksPerHour: 1000,
  onCwdChanged: { prompt: "Now in {{newCwd}}" },
  onGitCommit: { prompt: "Review {{subject}}", cooldownMs: 5000 },
  onFileSave: { prompt: "Saved {{file}}", patterns: ["src/**"], cooldownMs: 5000 },
  onFileChanged: { prompt: "Changed {{file}}", patterns: ["**"], cooldownMs: 5000 },
  onDiagnosticsStateChange: { prompt: "Errors in {{file}}", cooldownMs: 5000 },
  onTaskSuccess: { prompt: "Task {{taskId}} done", cooldownMs: 5000 },
};

/** The hook task (task-00000001) started by a user's cd, as Claude Code's CwdChanged reports it. */
function withHookTask() {
  const t = setup(POLICY, { root: "/ws" });
  const cd = parseNotify({ event: "CwdChanged", session_id: "user", new_cwd: "/ws/src" }, { root: "/ws" });
  if (!cd.ok) throw new Error(cd.message);
  expect(cd.events.flatMap((e) => t.engine.handle(e))).toMatchObject([{ decision: "fired", taskId: HOOK_TASK }]);
  return t;
}

const last = (t: ReturnType<typeof setup>) => t.decisions.at(-1);

describe("events no tool call published, while a hook task runs", () => {
  it("fires the user's commits, and holds the ones the task's commands may have made, until the window after them", () => {
    const t = withHookTask();
    const task = started(t);
    // The task reads and edits: neither commits, so a commit from the terminal is the user's.
    task.use("toolu_read", "Read", { file_path: "/ws/src/a.ts" });
    task.result("toolu_read");
    task.use("toolu_edit", "Edit", { file_path: "/ws/src/a.ts" });
    t.bus.publish("git.commit", commit("the user's commit"));
    expect(last(t)).toMatchObject({ hook: "onGitCommit", decision: "fired" });
    task.result("toolu_edit");

    // Its shell command runs: a commit appearing now may be its own.
    t.advance(6000);
    task.use("toolu_bash", "Bash", { command: "git commit -am 'task'" });
    t.bus.publish("git.commit", commit("the task's commit"));
    expect(last(t)).toMatchObject({
      decision: "skipped",
      reason: `loop guard: ${HOOK_TASK}, a hook's task, may have caused it: its Bash was running`,
    });
    // The watcher publishes a commit seconds after git wrote it: the window after the command still holds it.
    task.result("toolu_bash");
    t.advance(ACTED_WINDOW_MS - 1000);
    t.bus.publish("git.commit", commit("the task's commit, published late"));
    expect(last(t)?.reason).toMatch(/its Bash had ended 14000 ms before$/);
    t.advance(2000);
    t.bus.publish("git.commit", commit("the user's next commit"));
    expect(last(t)).toMatchObject({ decision: "fired" });

    // A background command acts until its task ends, and the window after that.
    t.advance(6000);
    task.use("toolu_bg", "Bash", { command: "npm run watch-and-commit", run_in_background: true });
    task.result("toolu_bg");
    t.advance(ACTED_WINDOW_MS * 2);
    t.bus.publish("git.commit", commit("from the background"));
    expect(last(t)?.reason).toMatch(/its Bash was running$/);
    t.engine.taskFinished(HOOK_TASK);
    t.advance(ACTED_WINDOW_MS + 1);
    t.bus.publish("git.commit", commit("after the task"));
    expect(last(t)).toMatchObject({ decision: "fired" });
  });

  it("counts the task's calls of this bridge's read-only tools as reads, and its other bridge tools as actions", () => {
    const t = setup(POLICY, { root: "/ws", bridgeReadOnly: (tool) => tool === "getDiagnostics" });
    const cd = parseNotify({ event: "CwdChanged", session_id: "user", new_cwd: "/ws/src" }, { root: "/ws" });
    if (!cd.ok) throw new Error(cd.message);
    for (const e of cd.events) t.engine.handle(e);
    const task = started(t);
    task.use("toolu_diag", "mcp__ide__getDiagnostics", { file: "/ws/src/a.ts" });
    t.bus.publish("git.commit", commit("the user's commit"));
    expect(last(t)).toMatchObject({ hook: "onGitCommit", decision: "fired" });
    // A bridge tool that is not read-only, and a read-only name under no MCP prefix, may have acted.
    t.advance(6000);
    task.use("toolu_commit", "mcp__ide__gitCommit", { message: "x" });
    t.bus.publish("git.commit", commit("the task's commit"));
    expect(last(t)?.reason).toMatch(/its mcp__ide__gitCommit was running$/);
    task.result("toolu_commit");
    t.advance(ACTED_WINDOW_MS + 1);
    task.use("toolu_plain", "getDiagnostics", {});
    t.bus.publish("git.commit", commit("while an unknown tool runs"));
    expect(last(t)?.reason).toMatch(/its getDiagnostics was running$/);
  });

  it("fires the user's VS Code saves and holds a save of a file the task's tool named", () => {
    const t = withHookTask();
    const task = started(t);
    task.use("toolu_save", "mcp__bridge__saveDocument", { path: "/ws/src/task.ts" });
    t.bus.publish("file.saved", { file: "src/task.ts", via: "vscode" });
    expect(last(t)).toMatchObject({
      decision: "skipped",
      file: "src/task.ts",
      reason: `loop guard: ${HOOK_TASK}, a hook's task, may have caused it: its mcp__bridge__saveDocument (src/task.ts) was running`,
    });
    // The same moment, another file: the user saved it.
    t.bus.publish("file.saved", { file: "src/user.ts", via: "vscode" });
    expect(last(t)).toMatchObject({ decision: "fired", file: "src/user.ts" });
    // A shell command cannot make VS Code save: the user's save fires while one runs.
    task.use("toolu_bash", "Bash", { command: "npm test" });
    t.advance(6000);
    t.bus.publish("file.saved", { file: "src/user.ts", via: "vscode" });
    expect(last(t)).toMatchObject({ decision: "fired", file: "src/user.ts" });
  });

  it("holds diagnostics while the task changes files, and a FileChanged another session reports for the task's write", () => {
    const t = withHookTask();
    const task = started(t);
    task.use("toolu_read", "Grep", { pattern: "x", path: "/ws/src" });
    t.bus.publish("diagnostics.state", diagnostics("src/user.ts"));
    expect(last(t)).toMatchObject({ decision: "fired", file: "src/user.ts" });
    // An edit of one file changes its importers' diagnostics too.
    task.use("toolu_write", "Write", { file_path: "/ws/src/lib.ts", content: "" });
    t.bus.publish("diagnostics.state", diagnostics("src/importer.ts"));
    expect(last(t)?.reason).toMatch(/its Write \(src\/lib\.ts\) was running$/);

    // The user's Claude Code reports every writer's changes: the task's file is the task's, another is not.
    const changed = (file: string) => {
      const parsed = parseNotify(
        { event: "FileChanged", session_id: "user", file_path: `/ws/${file}`, file_event: "change" },
        { root: "/ws" },
      );
      if (!parsed.ok) throw new Error(parsed.message);
      return parsed.events.flatMap((e) => t.engine.handle(e));
    };
    expect(changed("src/lib.ts")).toMatchObject([{ decision: "skipped", reason: expect.stringMatching(/its Write \(src\/lib\.ts\)/) }]);
    expect(changed("README.md")).toMatchObject([{ decision: "fired", file: "README.md" }]);
    task.result("toolu_write");
    t.advance(ACTED_WINDOW_MS + 1);
    t.bus.publish("diagnostics.state", diagnostics("src/importer.ts"));
    expect(last(t)).toMatchObject({ decision: "fired", file: "src/importer.ts" });
  });

  it("fires onTaskSuccess for a task no hook started, while a hook task runs", () => {
    const t = withHookTask();
    t.bus.publish("claude.task", { id: "task-0000abcd", status: "done", trigger: "tool" });
    expect(last(t)).toMatchObject({ hook: "onTaskSuccess", decision: "fired" });
    // The hook task's own success starts nothing.
    const before = t.decisions.length;
    t.bus.publish("claude.task", { id: HOOK_TASK, status: "done", trigger: "onCwdChanged" });
    expect(t.decisions).toHaveLength(before);
  });

  it("ignores the actions of tasks no hook started", () => {
    const t = withHookTask();
    t.engine.noteToolActivity("task-0000abcd", { kind: "use", id: "toolu_x", name: "Bash", input: { command: "git commit" } });
    t.bus.publish("git.commit", commit("a user's task's commit"));
    expect(last(t)).toMatchObject({ decision: "fired" });
  });
});
