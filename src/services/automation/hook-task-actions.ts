// What the hook tasks were doing, and when: the loop guard's answer for events no tool call published
// (a commit the reflog shows, a save VS Code reports, a language server's new diagnostics, a debug
// session VS Code started) and for Claude Code's FileChanged, which a user's session reports for any
// writer. Such an event names no caller, so it is judged by the task's own stream: each tool use it
// announces (before Claude Code runs it) and the result that ends it. An event is a hook task's when
// one of its actions that could have caused it was running, or ended less than ACTED_WINDOW_MS before
// (the reflog watcher publishes a commit after a debounce and a wait of about 3.3 s; diagnostics settle
// for 1 s). Everything else is the user's and fires, even while a hook task runs.
// What cannot be told apart, and is therefore counted as the task's: the user's own commit or edit made
// while a hook task's command runs (or within the window after it), and a VS Code save of a file the
// task's tool named in that window. And what is missed: a file a task's command changes without
// naming it in its input, saved in VS Code by the user afterwards (it fires; the cooldown and the
// hourly cap bound each repeat). A task's calls of this bridge's own read-only tools (Claude Code
// names them mcp__<server>__<tool>) change nothing, like its Read and Grep.
import { isAbsolute, isInside, relative } from "../../lib/paths/posix-path.ts";
import type { ToolActivity } from "../claude-tasks/output-lines.ts";
import type { HookName } from "./policy-schema.ts";

/** How long after a task's action ended an event may still be its doing. */
export const ACTED_WINDOW_MS = 15_000;
/** Actions remembered; past it the oldest are forgotten (ended ones are dropped after the window anyway). */
const ACTIONS_REMEMBERED = 1_000;

/** Claude Code's tools that read or plan and change nothing. */
const READ_ONLY_TOOLS = new Set([
  "Read",
  "Glob",
  "Grep",
  "LS",
  "NotebookRead",
  "WebFetch",
  "WebSearch",
  "TodoWrite",
  "TodoRead",
  "ToolSearch",
  "ExitPlanMode",
  "AskUserQuestion",
  "BashOutput",
]);
/** Claude Code's tools that write the files their input names, and run nothing. */
const FILE_TOOLS = new Set(["Write", "Edit", "MultiEdit", "NotebookEdit"]);
/** Input fields that name files, in Claude Code's tools and the bridge's. */
const PATH_FIELDS = ["file_path", "notebook_path", "path", "filePath", "file", "paths", "files"];

interface Action {
  taskId: string;
  name: string;
  files: string[];
  /** Reads or plans and changes nothing. */
  readOnly: boolean;
  started: number;
  /** Undefined while it runs. */
  ended: number | undefined;
  /** A shell command left running in the background: it acts until its task ends. */
  background: boolean;
}

/** What kind of action could have caused an event of a hook. */
type Cause = "named-file" | "disk-file" | "command" | "change" | "unknown";

const CAUSE_OF: Partial<Record<HookName, Cause>> = {
  onFileSave: "named-file",
  onRecipeSave: "named-file",
  onGitCommit: "command",
  onDebugSession: "command",
  onDiagnosticsStateChange: "change",
  onFileChanged: "disk-file",
};

export class HookTaskActions {
  private readonly actions = new Map<string, Action>();

  /**
   * `root`: the workspace root, against which absolute paths in inputs are compared with the events' relative ones.
   * `bridgeReadOnly`: whether a tool of this bridge (by its own name) only reads.
   */
  constructor(private readonly opts: { root: string | undefined; now: () => number; bridgeReadOnly?: (tool: string) => boolean }) {}

  /** A hook task's stream announced a tool use or its result. */
  note(taskId: string, activity: ToolActivity): void {
    const now = this.opts.now();
    if (activity.kind === "result") {
      const action = this.actions.get(activity.id);
      if (action !== undefined && action.ended === undefined && !action.background) action.ended = now;
      return;
    }
    this.actions.set(activity.id, {
      taskId,
      name: activity.name,
      files: namedFiles(activity.input).map((f) => inWorkspace(f, this.opts.root)),
      readOnly: READ_ONLY_TOOLS.has(activity.name) || this.bridgeToolReadOnly(activity.name),
      started: now,
      ended: undefined,
      background: activity.name === "Bash" && activity.input.run_in_background === true,
    });
    this.forget(now);
  }

  /** A hook task ended: whatever of it still ran has ended now. */
  taskEnded(taskId: string): void {
    const now = this.opts.now();
    for (const action of this.actions.values()) if (action.taskId === taskId && action.ended === undefined) action.ended = now;
  }

  /**
   * The hook task and action that may have caused an event of `hook` (about `file`), if one may have.
   * `running`: the hook tasks running now, for an event of a kind no rule covers (held while one runs).
   */
  actorOf(event: { hook: HookName; file?: string }, running: ReadonlySet<string>): string | undefined {
    const now = this.opts.now();
    const cause = CAUSE_OF[event.hook] ?? "unknown";
    if (cause === "unknown") {
      const [task] = running;
      return task === undefined ? undefined : `${task}, a hook's task, is running and the bridge cannot tell whether it caused this event`;
    }
    for (const action of this.actions.values()) {
      if (action.ended !== undefined && now - action.ended > ACTED_WINDOW_MS) continue;
      if (!couldCause(action, cause, event.file)) continue;
      const when = action.ended === undefined ? "was running" : `had ended ${now - action.ended} ms before`;
      return `${action.taskId}, a hook's task, may have caused it: its ${action.name}${action.files.length > 0 ? ` (${action.files[0]})` : ""} ${when}`;
    }
    return undefined;
  }

  /** Claude Code's name of an MCP tool is mcp__<server>__<tool>: the server's name is the user's choice, the tool's is ours. */
  private bridgeToolReadOnly(name: string): boolean {
    const tool = /^mcp__.+?__(.+)$/.exec(name)?.[1];
    return tool !== undefined && this.opts.bridgeReadOnly?.(tool) === true;
  }

  private forget(now: number): void {
    for (const [id, action] of this.actions) {
      if (this.actions.size > ACTIONS_REMEMBERED || (action.ended !== undefined && now - action.ended > ACTED_WINDOW_MS))
        this.actions.delete(id);
    }
  }
}

function couldCause(action: Action, cause: Exclude<Cause, "unknown">, file: string | undefined): boolean {
  const names = file !== undefined && action.files.some((f) => f === file || f === `./${file}`);
  if (cause === "named-file" || names) return names;
  if (action.readOnly) return false;
  // A file tool writes only what it names; it commits nothing, starts no debugger and changes no other file.
  if (cause === "command" || cause === "disk-file") return !FILE_TOOLS.has(action.name);
  // A change (new diagnostics, a file changed on disk): every writing action, since one file's edit changes its importers' diagnostics.
  return true;
}

/** A path as the events name it: relative to the workspace root when inside it. */
function inWorkspace(path: string, root: string | undefined): string {
  return root !== undefined && isAbsolute(path) && isInside(path, root) ? relative(root, path) : path;
}

/** The paths an input names, from the fields tools name files by. */
function namedFiles(input: Record<string, unknown>): string[] {
  const files: string[] = [];
  for (const field of PATH_FIELDS) {
    const value = input[field];
    if (typeof value === "string") files.push(value);
    else if (Array.isArray(value)) for (const v of value) if (typeof v === "string") files.push(v);
  }
  return files.slice(0, 20);
}
