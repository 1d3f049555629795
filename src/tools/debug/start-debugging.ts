// startDebugging: starts a program (or a pytest test, or a .vscode/launch.json configuration) under
// its language's debug adapter, or attaches to a running one (by process id, or a launch.json attach
// configuration: attach-target.ts), applies the caller's breakpoints, and waits for the first stop (a
// breakpoint, an uncaught exception, the entry) or the end, up to a timeout.
import * as v from "valibot";
import { ToolError } from "../../errors.ts";
import { DEBUG_ADAPTERS } from "../../dap/debug-adapters.ts";
import { defineTool } from "../platform/define-tool.ts";
import { applyAll, BreakpointReportSchema } from "./apply-breakpoints.ts";
import type { BreakpointReport } from "./breakpoint-specs.ts";
import { DEBUG_SESSIONS } from "./debug-sessions.ts";
import { attachTarget } from "./attach-target.ts";
import { processTarget } from "./attach-pid.ts";
import { refusalAsToolError } from "./adapter-refusals.ts";
import { launchTarget } from "./launch-target.ts";
import type { DebugSession } from "../../dap/debug-session.ts";
import { DEFAULT_WAIT_MS, MAX_WAIT_MS } from "./run-control.ts";
import { OutcomeSchema, outcomeView } from "./stop-view.ts";

const ATTACH_WAIT_MS = 2000;

export default defineTool({
  name: "startDebugging",
  title: "Start debugging",
  description:
    "Runs a program, pytest test or launch.json configuration under the debugger (Python, C/C++, Go, Node/TypeScript) or attaches to a running one; waits for the first stop. Runs project code.",
  searchHint:
    "debug start debugger launch attach process pid program breakpoint python c cpp go node javascript typescript debugpy lldb delve inspector",
  input: v.strictObject({
    program: v.optional(
      v.pipe(
        v.string(),
        v.description("Script (.py, .js, .ts with a source map), Go source or package dir, or executable; workspace-relative."),
      ),
    ),
    args: v.optional(
      v.pipe(v.array(v.pipe(v.string(), v.maxLength(32_768))), v.maxLength(1000), v.description("Arguments of the program.")),
    ),
    test: v.optional(v.pipe(v.string(), v.description('Python: a pytest target ("tests/test_x.py::test_y") instead of program.'))),
    configName: v.optional(v.pipe(v.string(), v.description("A configuration's name in .vscode/launch.json (an attach one attaches)."))),
    processId: v.optional(
      v.pipe(
        v.number(),
        v.integer(),
        v.minValue(1),
        v.description("Attach to this process (Go, C/C++, Node): one the bridge started or launch.json names."),
      ),
    ),
    configuration: v.optional(
      v.pipe(v.record(v.string(), v.unknown()), v.description("With VS Code connected: an inline launch configuration.")),
    ),
    language: v.optional(
      v.pipe(v.picklist(Object.keys(DEBUG_ADAPTERS) as ["python", "c", "go", "node"]), v.description("Default: from the program.")),
    ),
    cwd: v.optional(v.pipe(v.string(), v.description("Workspace-relative (default: root)."))),
    env: v.optional(v.pipe(v.record(v.string(), v.pipe(v.string(), v.maxLength(32_768))), v.description("Extra variables."))),
    stopOnEntry: v.optional(v.pipe(v.boolean(), v.description("Stop at the first line."))),
    breakOnUncaught: v.optional(v.pipe(v.boolean(), v.description("Stop on an uncaught exception (default true)."))),
    timeoutMs: v.optional(
      v.pipe(
        v.number(),
        v.integer(),
        v.minValue(100),
        v.maxValue(MAX_WAIT_MS),
        v.description(`Wait for the first stop (default ${DEFAULT_WAIT_MS}).`),
      ),
    ),
  }),
  output: v.object({
    ...OutcomeSchema.entries,
    language: v.string(),
    program: v.string(),
    breakpoints: v.array(BreakpointReportSchema),
    msToFirstStop: v.optional(v.number()),
  }),
  // The program is the project's code: it may do anything its author wrote.
  annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: true },
  // Whether git tracks a launch.json that names a pid (attach-target.ts).
  requires: { optionalProbes: ["git"] },
  timeoutMs: MAX_WAIT_MS + 60_000,
  async handler(input, ctx) {
    const sessions = ctx.state(DEBUG_SESSIONS);
    // A process id or an attach configuration of .vscode/launch.json attaches; anything else launches.
    if (input.processId !== undefined && (input.program ?? input.test ?? input.configName) !== undefined) {
      throw new ToolError("invalid_arguments", "Give processId alone (no program, test or configName): it attaches to a running program", {
        suggestion: 'E.g. {"processId": 12345}, with language when it cannot be told from the executable.',
      });
    }
    const attach =
      input.processId === undefined ? await attachTarget(input.configName, ctx) : await processTarget(input.processId, input, ctx);
    const target = attach ?? (await launchTarget(input, ctx));
    const found = await ctx.debug.adapter(target.language);
    if (!found.available) {
      throw new ToolError("probe_missing", `No debug adapter for ${target.language}: ${found.label} is not installed`, {
        suggestion: `Install it (${found.install}) and call startDebugging again.`,
      });
    }
    sessions.reserve();
    let breakpoints: BreakpointReport[] = [];
    const breakOnUncaught = input.breakOnUncaught ?? true;
    const begin = {
      id: sessions.nextId(),
      language: target.language,
      signal: ctx.signal,
      configure: async (s: DebugSession) => {
        breakpoints = await applyAll(ctx, s, { breakOnUncaught });
      },
    };
    const starting =
      "launch" in target
        ? ctx.debug.start({ ...begin, launch: target.launch })
        : "pid" in target
          ? ctx.debug.attachProcess({ ...begin, ...target, roots: ctx.fs.folders })
          : ctx.debug.attach({ ...begin, ...target, roots: ctx.fs.folders });
    const session = await starting.catch((err: unknown) => {
      if (err instanceof ToolError) throw err;
      const refusal = refusalAsToolError(err);
      if (refusal !== undefined) throw refusal;
      throw new ToolError(
        "debug_adapter_error",
        `Could not start ${target.shown} under ${found.label}: ${err instanceof Error ? err.message : String(err)}`,
        {
          suggestion: "Check that the program runs (runCommand or runTests), then try again.",
        },
      );
    });
    sessions.add({ session, owner: ctx.session, program: target.shown });
    const event = { id: session.id, language: target.language, name: target.shown, via: "headless" as const };
    ctx.events.publish("debug.session", { phase: "start", ...event });
    void session.ended.then(({ exitCode }) =>
      ctx.events.publish("debug.session", { phase: "end", ...event, ...(exitCode === undefined ? {} : { exitCode }) }),
    );
    // An attached program runs on its own: a stop comes when it reaches a breakpoint, not at once.
    const outcome = await session.settled(input.timeoutMs ?? (attach === undefined ? DEFAULT_WAIT_MS : ATTACH_WAIT_MS), ctx.signal);
    const view = await outcomeView(session, outcome, { fs: ctx.fs, outputFrom: 0 });
    return {
      ...view,
      language: target.language,
      program: target.shown,
      breakpoints,
      ...(session.firstStopMs === undefined ? {} : { msToFirstStop: session.firstStopMs }),
    };
  },
});
