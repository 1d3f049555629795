// `claude-ide-bridge init --hooks`: Claude Code's command hooks that pass its own events to the
// bridge (`claude-ide-bridge notify <Event>`, posted to /notify) for the automation hooks, written
// into the project's .claude/settings.json. Idempotent: an entry of ours is found by its command
// (`... notify <Event>`) and updated in place, the user's own hooks and every other setting are
// kept, and a file that is not valid JSON is never overwritten. Event names and fields are Claude
// Code's (reference/protocol.md D4). FileChanged is left out: its matcher is the list of files
// Claude Code watches, which only the user can choose.
import { errorMessage, fsErrorCode } from "../errors.ts";
import { join } from "../lib/paths/posix-path.ts";
import type { CommandContext } from "./command-io.ts";
import { hooksCommand } from "./init-hooks-command.ts";

/** Each event and its matcher (PostToolUse: the tools that save a file). */
export const HOOKED_EVENTS: readonly { event: string; matcher?: string }[] = [
  { event: "CwdChanged" },
  { event: "PreCompact" },
  { event: "PostCompact" },
  { event: "InstructionsLoaded" },
  { event: "TaskCreated" },
  { event: "PermissionDenied" },
  { event: "PostToolUse", matcher: "Write|Edit|MultiEdit|NotebookEdit" },
];

/** Seconds Claude Code gives a hook; notify itself gives up after about two. */
const HOOK_TIMEOUT_S = 10;

type JsonObject = Record<string, unknown>;

export type HooksUpdate = { text: string; added: string[]; updated: string[] } | { error: string };

/** The settings text `before` (undefined: no file) with a hook entry per event running `lineFor(event)`. */
export function updateSettingsHooks(before: string | undefined, lineFor: (event: string) => string): HooksUpdate {
  let doc: unknown = {};
  if (before !== undefined && before.trim() !== "") {
    try {
      doc = JSON.parse(before);
    } catch (err) {
      return { error: `not valid JSON (${errorMessage(err)})` };
    }
  }
  if (!isObject(doc)) return { error: "the top level is not a JSON object" };
  const hooks = doc.hooks ?? {};
  if (!isObject(hooks)) return { error: `"hooks" is not an object` };
  const added: string[] = [];
  const updated: string[] = [];
  const next: JsonObject = { ...hooks };
  for (const { event, matcher } of HOOKED_EVENTS) {
    const groups = next[event] ?? [];
    if (!Array.isArray(groups)) return { error: `"hooks.${event}" is not an array` };
    const command = lineFor(event);
    const ours = findOurs(groups, event);
    if (ours === undefined) {
      const handler = { type: "command", command, timeout: HOOK_TIMEOUT_S };
      next[event] = [...groups, matcher === undefined ? { hooks: [handler] } : { matcher, hooks: [handler] }];
      added.push(event);
    } else if (ours.handler.command !== command) {
      next[event] = groups.map((group, g) =>
        g !== ours.group
          ? group
          : {
              ...(group as JsonObject),
              hooks: ((group as JsonObject).hooks as unknown[]).map((h, i) => (i === ours.index ? { ...(h as JsonObject), command } : h)),
            },
      );
      updated.push(event);
    }
  }
  if (added.length === 0 && updated.length === 0 && before !== undefined) return { text: before, added, updated };
  const eol = before?.includes("\r\n") ? "\r\n" : "\n";
  const text = `${JSON.stringify({ ...doc, hooks: next }, null, indentOf(before))}\n`;
  return { text: eol === "\n" ? text : text.replace(/\n/g, eol), added, updated };
}

/** Our handler among an event's groups: a command hook whose command runs `notify <event>`. */
function findOurs(groups: unknown[], event: string): { group: number; index: number; handler: JsonObject } | undefined {
  const ending = new RegExp(`(^|\\s)notify '?${event}'?$`);
  for (const [g, group] of groups.entries()) {
    const handlers = isObject(group) && Array.isArray(group.hooks) ? group.hooks : [];
    for (const [index, handler] of handlers.entries()) {
      if (isObject(handler) && handler.type === "command" && typeof handler.command === "string" && ending.test(handler.command.trim()))
        return { group: g, index, handler };
    }
  }
  return undefined;
}

function indentOf(text: string | undefined): string | number {
  if (text === undefined || !text.trim().includes("\n")) return 2;
  return /\n([ \t]+)\S/.exec(text)?.[1] ?? 2;
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Writes the hooks into `<dir>/.claude/settings.json` and reports what changed and which command form; 1 when it could not. */
export async function writeHooks(
  ctx: CommandContext,
  opts: { dir: string; override?: string; portable?: boolean; dryRun: boolean },
): Promise<number> {
  const { runtime } = ctx;
  const path = join(opts.dir, ".claude", "settings.json");
  let before: string | undefined;
  try {
    before = await runtime.fs.readTextFile(path);
  } catch (err) {
    if (fsErrorCode(err) !== "ENOENT") {
      ctx.err(`claude-ide-bridge init --hooks: cannot read ${path}: ${errorMessage(err)}\n`);
      return 1;
    }
  }
  const command = await hooksCommand(ctx, opts);
  const result = updateSettingsHooks(before, command.line);
  if ("error" in result) {
    ctx.err(`claude-ide-bridge init --hooks: ${path}: ${result.error}; fix it, then run init --hooks again. Nothing was changed.\n`);
    return 1;
  }
  const changed = result.added.length + result.updated.length > 0 || before === undefined;
  if (changed && !opts.dryRun) {
    await runtime.fs.mkdir(join(opts.dir, ".claude"), { recursive: true });
    await runtime.fs.writeFileAtomic(path, result.text);
  }
  const verb = opts.dryRun ? "would be" : "were";
  ctx.err(
    changed
      ? `${path}: hooks ${verb} added for ${result.added.join(", ") || "none"}${result.updated.length > 0 ? `, updated for ${result.updated.join(", ")}` : ""} (your own hooks and settings kept); each runs ${command.line("<Event>")}\n`
      : `${path} already has the notify hooks; nothing to change\n`,
  );
  ctx.err(`Command form "${command.form}": ${command.why}.\n`);
  ctx.err(
    "They feed the automation hooks of --automation-policy (onCwdChanged, onCompaction, onInstructionsLoaded, onTaskCreated, onPermissionDenied, onFileSave, onRecipeSave). " +
      'FileChanged is not installed: its matcher is the files Claude Code watches; add {"matcher": "<name>|<name>", "hooks": [{"type": "command", "command": "... notify FileChanged"}]} yourself for onFileChanged.\n',
  );
  return 0;
}
