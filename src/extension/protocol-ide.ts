// The requests of protocol 1.2 (terminals, VS Code's commands, tasks, settings, decorations and the
// clipboard), kept beside protocol.ts so that module stays readable; BRIDGE_REQUESTS spreads them.
// An extension that says hello with an older minor does not know them: the client answers
// not_supported naming the upgrade instead of sending (protocol.ts, METHOD_SINCE).
import * as v from "valibot";

const str = v.string();
const count = v.pipe(v.number(), v.integer(), v.minValue(0));
/** Longest a request that waits (a command, a task, new output) may be asked to wait. */
export const MAX_WAIT_MS = 600_000;
const waitMs = v.pipe(count, v.maxValue(MAX_WAIT_MS));

/** The most terminal output the extension keeps per terminal (older text is dropped first). */
export const MAX_TERMINAL_BUFFER_CHARS = 256 * 1024;
/** The most text the clipboard tools move either way. */
export const MAX_CLIPBOARD_CHARS = 100_000;

export const WireTerminal = v.object({
  /** The extension's id of the terminal (stable while it lives). */
  id: str,
  name: str,
  processId: v.optional(count),
  /** Shell integration is active: commands run with an exit code and their output is readable. */
  shellIntegration: v.boolean(),
  /** The shell VS Code detected (Terminal.state.shell: "bash", "pwsh", "cmd", "fish"...), when it has. */
  shell: v.optional(str),
  /** Created by the bridge (createTerminal, runInTerminal). */
  createdByBridge: v.boolean(),
  active: v.boolean(),
  /** Set once the terminal's process has ended. */
  exitCode: v.optional(v.nullable(v.number())),
});
export type WireTerminal = v.InferOutput<typeof WireTerminal>;

const TerminalOutput = v.object({
  text: str,
  /** Offset (in characters of everything the terminal printed) just after `text`: pass it as `since` next time. */
  next: count,
  /** Characters before `since` were already dropped from the buffer. */
  dropped: v.boolean(),
  shellIntegration: v.boolean(),
  exited: v.boolean(),
});
export type WireTerminalOutput = v.InferOutput<typeof TerminalOutput>;

const Task = v.object({ name: str, source: str, type: str, group: v.optional(str), detail: v.optional(str) });
export type WireTask = v.InferOutput<typeof Task>;

const Decoration = v.object({
  /** 0-based lines, inclusive. */
  startLine: count,
  endLine: count,
  style: v.picklist(["info", "warning", "error", "highlight"]),
  hoverMessage: v.optional(str),
  /** Shown after the line's end, dimmed. */
  after: v.optional(str),
});
export type WireDecoration = v.InferOutput<typeof Decoration>;

export const IDE_REQUESTS = {
  "extension/createTerminal": {
    params: v.object({
      name: str,
      cwd: str,
      env: v.record(str, str),
      /** Variables kept although they look like secrets (--pass-env). */
      passEnv: v.array(str),
      show: v.boolean(),
    }),
    result: v.object({ terminal: WireTerminal }),
  },
  "extension/listTerminals": { params: v.object({}), result: v.object({ terminals: v.array(WireTerminal) }) },
  /**
   * Runs a command line in a terminal: through shell integration when the shell has it (waiting
   * for it to start until `integrationWaitMs` after the terminal opened: a shell's integration
   * starts with its first prompt), which gives an exit code and the output; as typed text otherwise
   * (no exit code, nothing read). Waits up to `waitMs` for the command to end.
   */
  "extension/terminalCommand": {
    params: v.object({ id: str, commandLine: str, waitMs, integrationWaitMs: waitMs }),
    result: v.object({
      mode: v.picklist(["shellIntegration", "sendText"]),
      finished: v.boolean(),
      exitCode: v.optional(v.nullable(v.number())),
      output: v.optional(str),
      outputDropped: v.optional(v.boolean()),
      /** Where the command's output starts in the terminal's output (for getTerminalOutput's `since`). */
      since: count,
    }),
  },
  /** Output of the terminal's shell-integration commands from `since`; waits up to `waitMs` for some when there is none yet. */
  "extension/terminalOutput": {
    params: v.object({ id: str, since: v.optional(count), waitMs: v.optional(waitMs) }),
    result: TerminalOutput,
  },
  "extension/disposeTerminal": { params: v.object({ id: str }), result: v.object({ disposed: v.boolean() }) },
  "extension/executeCommand": {
    params: v.object({ command: str, args: v.array(v.unknown()) }),
    /** The command's result as JSON text (undefined when it returned nothing), cut to `maxChars`. */
    result: v.object({ json: v.optional(str), truncated: v.boolean() }),
  },
  "extension/listCommands": { params: v.object({}), result: v.object({ commands: v.array(str) }) },
  "extension/listTasks": { params: v.object({}), result: v.object({ tasks: v.array(Task) }) },
  "extension/runTask": {
    params: v.object({ name: str, source: v.optional(str), waitMs }),
    result: v.object({ task: Task, finished: v.boolean(), exitCode: v.optional(v.nullable(v.number())) }),
  },
  "extension/getSettings": {
    params: v.object({ section: v.optional(str) }),
    /** The effective values (JSON text) and, per key set in the workspace, its workspace value. */
    result: v.object({ json: str, workspaceKeys: v.array(str) }),
  },
  "extension/setSetting": {
    params: v.object({ key: str, value: v.unknown() }),
    result: v.object({ previous: v.optional(str) }),
  },
  "extension/setDecorations": {
    params: v.object({ id: str, filePath: str, decorations: v.array(Decoration) }),
    result: v.object({ applied: count, visible: v.boolean() }),
  },
  "extension/clearDecorations": { params: v.object({ ids: v.array(str) }), result: v.object({ cleared: count }) },
  "extension/readClipboard": { params: v.object({}), result: v.object({ text: str }) },
  "extension/writeClipboard": { params: v.object({ text: v.pipe(str, v.maxLength(MAX_CLIPBOARD_CHARS)) }), result: v.object({}) },
} as const;
