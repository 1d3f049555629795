// VS Code's own commands, tasks, settings and clipboard for the bridge. Which commands may run and
// which settings may change is the bridge's decision (src/tools/vscode/): the extension carries
// the request out and reports what VS Code said.
import * as vscode from "vscode";
import type { ParamsOf, ResultOf } from "../../src/extension/protocol.ts";
import type { WireTask } from "../../src/extension/protocol-ide.ts";
import { Failure } from "./failure.ts";

/** The most JSON text of a command's result or of settings sent back (the bridge cuts further). */
const MAX_JSON_CHARS = 200_000;

export async function executeCommand(p: ParamsOf<"extension/executeCommand">): Promise<ResultOf<"extension/executeCommand">> {
  const known = await vscode.commands.getCommands(false);
  if (!known.includes(p.command))
    throw new Failure("not_supported", `VS Code has no command ${p.command}`, "listVSCodeCommands gives the commands it has.");
  const result: unknown = await vscode.commands.executeCommand(p.command, ...p.args);
  if (result === undefined) return { truncated: false };
  const json = safeJson(result);
  return { json: json.slice(0, MAX_JSON_CHARS), truncated: json.length > MAX_JSON_CHARS };
}

export async function listCommands(): Promise<ResultOf<"extension/listCommands">> {
  // Internal commands (leading underscore) are VS Code's plumbing, not for callers.
  return { commands: (await vscode.commands.getCommands(true)).sort() };
}

export async function listTasks(): Promise<ResultOf<"extension/listTasks">> {
  return { tasks: (await vscode.tasks.fetchTasks()).map(wireTask) };
}

export async function runTask(p: ParamsOf<"extension/runTask">): Promise<ResultOf<"extension/runTask">> {
  const tasks = (await vscode.tasks.fetchTasks()).filter((t) => t.name === p.name && (p.source === undefined || t.source === p.source));
  const task = tasks[0];
  if (task === undefined)
    throw new Failure(
      "match_not_found",
      `No task named "${p.name}"${p.source ? ` from ${p.source}` : ""}`,
      "listVSCodeTasks gives the tasks.",
    );
  if (tasks.length > 1)
    throw new Failure(
      "match_ambiguous",
      `${tasks.length} tasks are named "${p.name}" (${tasks.map((t) => t.source).join(", ")})`,
      "Give `source` too.",
    );
  let execution: vscode.TaskExecution | undefined;
  const ended = new Promise<number | null>((resolve) => {
    const subs = [
      vscode.tasks.onDidEndTaskProcess((e) => {
        if (e.execution !== execution) return;
        for (const s of subs) s.dispose();
        resolve(e.exitCode ?? null);
      }),
      // A task without a process of its own (a compound task) ends without an exit code.
      vscode.tasks.onDidEndTask((e) => {
        if (e.execution !== execution) return;
        setTimeout(() => {
          for (const s of subs) s.dispose();
          resolve(null);
        }, 500);
      }),
    ];
  });
  execution = await vscode.tasks.executeTask(task);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const outcome = await Promise.race([
    ended.then((code) => ({ finished: true as const, code })),
    new Promise<{ finished: false }>((resolve) => {
      timer = setTimeout(() => resolve({ finished: false }), p.waitMs);
    }),
  ]);
  clearTimeout(timer);
  return { task: wireTask(task), finished: outcome.finished, ...(outcome.finished ? { exitCode: outcome.code } : {}) };
}

export async function getSettings(p: ParamsOf<"extension/getSettings">): Promise<ResultOf<"extension/getSettings">> {
  const config = vscode.workspace.getConfiguration(p.section);
  const keys = Object.keys(config).filter((k) => typeof (config as unknown as Record<string, unknown>)[k] !== "function");
  const workspaceKeys = keys.filter((k) => {
    const seen = config.inspect(k);
    return seen?.workspaceValue !== undefined || seen?.workspaceFolderValue !== undefined;
  });
  return { json: safeJson(config).slice(0, MAX_JSON_CHARS), workspaceKeys };
}

export async function setSetting(p: ParamsOf<"extension/setSetting">): Promise<ResultOf<"extension/setSetting">> {
  if (vscode.workspace.workspaceFolders === undefined)
    throw new Failure(
      "not_supported",
      "No folder is open in VS Code: there are no workspace settings",
      "Open the workspace folder in VS Code.",
    );
  const config = vscode.workspace.getConfiguration();
  const previous = config.inspect(p.key)?.workspaceValue;
  await config.update(p.key, p.value, vscode.ConfigurationTarget.Workspace);
  return previous === undefined ? {} : { previous: safeJson(previous) };
}

export async function readClipboard(): Promise<ResultOf<"extension/readClipboard">> {
  return { text: await vscode.env.clipboard.readText() };
}

export async function writeClipboard(p: ParamsOf<"extension/writeClipboard">): Promise<ResultOf<"extension/writeClipboard">> {
  await vscode.env.clipboard.writeText(p.text);
  return {};
}

function wireTask(task: vscode.Task): WireTask {
  return {
    name: task.name,
    source: task.source,
    type: task.definition.type,
    ...(task.group?.id === undefined ? {} : { group: task.group.id }),
    ...(task.detail === undefined ? {} : { detail: task.detail }),
  };
}

/** JSON of what VS Code returned: URIs as strings, cycles cut. */
function safeJson(value: unknown): string {
  const seen = new WeakSet<object>();
  return (
    JSON.stringify(value, (_key, v: unknown) => {
      if (v instanceof vscode.Uri) return v.toString();
      if (typeof v === "object" && v !== null) {
        if (seen.has(v)) return "[cycle]";
        seen.add(v);
      }
      return typeof v === "function" ? undefined : v;
    }) ?? "null"
  );
}
