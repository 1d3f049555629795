// Claude Code's own events, as its command hooks pass them to `claude-ide-bridge notify` and that
// posts them to /notify: `{ event, ...the hook's JSON }`. Each is checked with valibot (a missing or
// mistyped field is named in the answer) and turned into the automation event of its hook. The
// field names are Claude Code's (reference/protocol.md D4); Claude Code adds fields of its own over
// time, so unknown fields are allowed and ignored. Everything in them came from the workspace or
// the model, so every value goes into prompts fenced.
import * as v from "valibot";
import { isAbsolute, relative } from "../../lib/paths/posix-path.ts";
import type { AutomationEvent, EventOrigin } from "./automation-engine.ts";
import type { TemplateValue } from "./prompt-template.ts";

const text = v.pipe(v.string(), v.maxLength(16_384));
const optionalText = v.optional(text);

/** Fields every hook input has, and the task id `notify` adds when it runs inside a bridge task. */
const Common = {
  session_id: v.optional(v.pipe(v.string(), v.maxLength(200))),
  cwd: optionalText,
  bridge_task_id: v.optional(v.pipe(v.string(), v.regex(/^task-[0-9a-f]{8}$/, "a bridge task id (task-xxxxxxxx)"))),
};

/** The tools whose PostToolUse is Claude Code saving a file. */
export const FILE_WRITING_TOOLS = ["Write", "Edit", "MultiEdit", "NotebookEdit"] as const;

export const NOTIFY_SCHEMAS = {
  CwdChanged: v.object({ ...Common, old_cwd: optionalText, new_cwd: text }),
  PreCompact: v.object({ ...Common, trigger: optionalText, custom_instructions: v.optional(v.nullable(text)) }),
  PostCompact: v.object({ ...Common, trigger: optionalText, compact_summary: optionalText }),
  InstructionsLoaded: v.object({ ...Common, file_path: text, memory_type: optionalText, load_reason: optionalText }),
  TaskCreated: v.object({ ...Common, task_id: text, task_subject: text, task_description: optionalText }),
  PermissionDenied: v.object({ ...Common, tool_name: text, tool_input: v.optional(v.unknown()), reason: optionalText }),
  // Claude Code calls the kind of change `event`, which the body's envelope takes: notify sends it as file_event.
  FileChanged: v.object({ ...Common, file_path: text, file_event: v.optional(v.picklist(["change", "add", "unlink"])) }),
  PostToolUse: v.object({
    ...Common,
    tool_name: v.picklist(FILE_WRITING_TOOLS, `tool_name must be one of ${FILE_WRITING_TOOLS.join(", ")} (a file save)`),
    tool_input: v.object({ file_path: v.optional(text), notebook_path: v.optional(text) }),
  }),
} as const;

export type NotifyEventName = keyof typeof NOTIFY_SCHEMAS;
export const NOTIFY_EVENTS = Object.keys(NOTIFY_SCHEMAS) as NotifyEventName[];

export type NotifyParse = { ok: true; event: NotifyEventName; events: AutomationEvent[] } | { ok: false; message: string };

const fenced = (value: string | undefined): TemplateValue => ({ text: value ?? "", trusted: false });

/** A /notify body as the automation events it feeds (a file save of a .yaml is also a recipe save). */
export function parseNotify(body: unknown, opts: { root: string }): NotifyParse {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return { ok: false, message: "the body must be a JSON object" };
  const name = (body as { event?: unknown }).event;
  if (typeof name !== "string" || !(name in NOTIFY_SCHEMAS)) {
    return {
      ok: false,
      message: `${typeof name === "string" ? `unknown event "${name.slice(0, 60)}"` : "no event"}: "event" must be one of ${NOTIFY_EVENTS.join(", ")}`,
    };
  }
  const event = name as NotifyEventName;
  const result = v.safeParse(NOTIFY_SCHEMAS[event] as v.GenericSchema<unknown, Record<string, unknown>>, body);
  if (!result.success) {
    const issue = result.issues[0];
    const path = (issue.path ?? []).map((p) => String(p.key)).join(".");
    const why = issue.input === undefined ? "missing" : issue.message;
    return { ok: false, message: `${event}${path === "" ? "" : `.${path}`}: ${why}` };
  }
  return { ok: true, event, events: toAutomationEvents(event, result.output, opts.root) };
}

function toAutomationEvents(event: NotifyEventName, input: Record<string, unknown>, root: string): AutomationEvent[] {
  const str = (key: string) => (typeof input[key] === "string" ? (input[key] as string) : undefined);
  const origin: EventOrigin = {
    ...(str("bridge_task_id") === undefined ? {} : { taskId: str("bridge_task_id") }),
    ...(str("session_id") === undefined ? {} : { claudeSessionId: str("session_id") }),
  };
  const base = { event: `claude.${event}`, origin };
  switch (event) {
    case "CwdChanged":
      return [{ ...base, hook: "onCwdChanged", values: { oldCwd: fenced(str("old_cwd")), newCwd: fenced(str("new_cwd")) } }];
    case "PreCompact":
      return [
        {
          ...base,
          hook: "onCompaction",
          phase: "pre",
          values: { trigger: fenced(str("trigger")), instructions: fenced(str("custom_instructions")) },
        },
      ];
    case "PostCompact":
      return [
        {
          ...base,
          hook: "onCompaction",
          phase: "post",
          values: { trigger: fenced(str("trigger")), summary: fenced(str("compact_summary")) },
        },
      ];
    case "InstructionsLoaded":
      return [
        {
          ...base,
          hook: "onInstructionsLoaded",
          file: inWorkspace(str("file_path") ?? "", root),
          values: { file: fenced(str("file_path")), memoryType: fenced(str("memory_type")), loadReason: fenced(str("load_reason")) },
        },
      ];
    case "TaskCreated":
      return [
        {
          ...base,
          hook: "onTaskCreated",
          values: { taskId: fenced(str("task_id")), subject: fenced(str("task_subject")), description: fenced(str("task_description")) },
        },
      ];
    case "PermissionDenied":
      return [
        {
          ...base,
          hook: "onPermissionDenied",
          values: {
            tool: fenced(str("tool_name")),
            input: fenced(input.tool_input === undefined ? "" : JSON.stringify(input.tool_input).slice(0, 4000)),
            reason: fenced(str("reason")),
          },
        },
      ];
    case "FileChanged": {
      const file = inWorkspace(str("file_path") ?? "", root);
      return [{ ...base, hook: "onFileChanged", file, values: { file: fenced(file), change: fenced(str("file_event") ?? "change") } }];
    }
    case "PostToolUse": {
      const toolInput = input.tool_input as { file_path?: string; notebook_path?: string };
      const path = toolInput.file_path ?? toolInput.notebook_path;
      if (path === undefined) return [];
      const file = inWorkspace(path, root);
      const save: AutomationEvent = { ...base, event: "claude.fileSaved", hook: "onFileSave", file, values: { file: fenced(file) } };
      return /\.ya?ml$/i.test(file) ? [save, { ...save, hook: "onRecipeSave" }] : [save];
    }
  }
}

/** A path as the policy's globs see it: relative to the workspace root when inside it, else as given. */
function inWorkspace(path: string, root: string): string {
  const absolute = isAbsolute(path) ? path : `${root}/${path}`;
  const inside = relative(root, absolute);
  return inside === "" || inside.startsWith("../") || inside === ".." ? path : inside;
}
