// startDebugging through VS Code: a launch configuration by name (the user's launch.json), an inline
// configuration, or a JavaScript program (an inline Node configuration). An inline configuration
// comes from the model, so it may only name what runs the way startDebugging's own fields do: its
// program and working directory inside the workspace, arguments that name no path outside it, no
// variable that loads other code, and none of the keys that choose another executable or run a task.
import { ToolError } from "../../../errors.ts";
import type { ToolContext } from "../../../capabilities/context.ts";
import { argumentOutside } from "../../../security/commands/argument-paths.ts";
import type { BreakpointReport } from "../breakpoint-specs.ts";
import { shownPath, type OutcomeView } from "../stop-view.ts";
import { verdictReport } from "./vscode-breakpoints.ts";
import { vscodeOutcome } from "./vscode-sessions.ts";

export interface StartInput {
  program?: string | undefined;
  args?: string[] | undefined;
  configName?: string | undefined;
  configuration?: Record<string, unknown> | undefined;
  cwd?: string | undefined;
  env?: Record<string, string> | undefined;
  stopOnEntry?: boolean | undefined;
  timeoutMs?: number | undefined;
}

const DEFAULT_WAIT_MS = 15_000;
const JS_PROGRAM = /\.(c|m)?js$/;
/** What an inline configuration may say: what runs is its program, nothing else. */
const INLINE_KEYS = new Set([
  "type",
  "request",
  "name",
  "program",
  "args",
  "cwd",
  "env",
  "stopOnEntry",
  "skipFiles",
  "console",
  "outFiles",
  "sourceMaps",
  "smartStep",
  "justMyCode",
  "showAsyncStacks",
  "internalConsoleOptions",
]);
const LOADER_VARIABLES = /^(LD_|DYLD_)|^(PYTHONSTARTUP|PYTHONHOME|NODE_OPTIONS|BASH_ENV|ENV)$/;

/** Whether VS Code can start this: a configuration, or a program its built-in JavaScript debugger runs. */
export function startsInVSCode(input: StartInput): boolean {
  return (
    input.configName !== undefined || input.configuration !== undefined || (input.program !== undefined && JS_PROGRAM.test(input.program))
  );
}

export async function startInVSCode(
  input: StartInput,
  ctx: ToolContext,
): Promise<OutcomeView & { language: string; program: string; breakpoints: BreakpointReport[] }> {
  const configuration = input.configName === undefined ? await inlineConfiguration(input, ctx) : undefined;
  const r = await ctx.extension.request(
    "extension/debugStart",
    {
      ...(input.configName === undefined ? {} : { name: input.configName }),
      ...(configuration === undefined ? {} : { configuration }),
      waitMs: input.timeoutMs ?? DEFAULT_WAIT_MS,
      allowTasks: [...(ctx.settings.vscodeAllowTasks ?? [])],
      passEnv: [...(ctx.settings.passEnv ?? [])],
    },
    { signal: ctx.signal },
  );
  const view = await vscodeOutcome(ctx, r.session, { output: r.output });
  const breakpoints = r.breakpoints.map(
    (b): BreakpointReport => ({
      ...(b.filePath === undefined
        ? { function: b.function ?? "" }
        : { file: shownPath(ctx.fs, b.filePath) ?? b.filePath, line: b.line ?? 0 }),
      ...verdictReport(b),
    }),
  );
  return { ...view, language: r.session.type, program: input.configName ?? r.session.name, breakpoints };
}

async function inlineConfiguration(input: StartInput, ctx: ToolContext): Promise<Record<string, unknown>> {
  const given = input.configuration ?? { type: "node", request: "launch", name: input.program ?? "program" };
  const extra = Object.keys(given).filter((k) => !INLINE_KEYS.has(k));
  if (extra.length > 0) {
    throw new ToolError("command_refused", `Refused: an inline configuration may not set ${extra.join(", ")}`, {
      suggestion: `Allowed: ${[...INLINE_KEYS].join(", ")}. For more, ask the user to add the configuration to .vscode/launch.json and start it by configName.`,
    });
  }
  const merged: Record<string, unknown> = { ...given };
  for (const [key, value] of [
    ["program", input.program],
    ["args", input.args],
    ["cwd", input.cwd],
    ["env", input.env],
    ["stopOnEntry", input.stopOnEntry],
  ] as const)
    if (value !== undefined) merged[key] = value;
  if (typeof merged.type !== "string" || typeof merged.request !== "string") {
    throw new ToolError("invalid_arguments", "An inline configuration needs type and request", {
      suggestion: 'E.g. {"type": "node", "request": "launch", "name": "app", "program": "app.js"}.',
    });
  }
  if (merged.request !== "launch") {
    throw new ToolError(
      "command_refused",
      `Refused: inline configurations launch a workspace program; "${String(merged.request)}" is not supported`,
      {
        suggestion: "Attach with a launch.json configuration the user wrote (configName).",
      },
    );
  }
  if (typeof merged.name !== "string") merged.name = typeof merged.program === "string" ? merged.program : "program";
  const cwd = await ctx.fs.resolve(typeof merged.cwd === "string" ? merged.cwd : ".");
  merged.cwd = cwd;
  if (typeof merged.program !== "string") {
    throw new ToolError("invalid_arguments", "An inline configuration needs its program", { suggestion: 'E.g. "program": "src/app.js".' });
  }
  merged.program = await ctx.fs.resolve(merged.program);
  const args = Array.isArray(merged.args) ? merged.args.map(String) : [];
  const outside = argumentOutside(args, { cwd, folders: ctx.fs.folders });
  if (outside !== undefined) {
    throw new ToolError(
      "command_refused",
      `Refused: the argument ${JSON.stringify(outside.arg)} names ${outside.path}, outside the workspace`,
      {
        suggestion: "Programs under the debugger work on files of the workspace only (the same rule as runCommand).",
      },
    );
  }
  const env = typeof merged.env === "object" && merged.env !== null ? Object.keys(merged.env) : [];
  const loader = env.find((k) => LOADER_VARIABLES.test(k));
  if (loader !== undefined) {
    throw new ToolError("command_refused", `Refused: ${loader} would make the program load other code`, {
      suggestion: "Leave it out; set it in a launch.json configuration if the user wants it.",
    });
  }
  return merged;
}
