// setDebugBreakpoints through VS Code: the file's breakpoints (lines found from a line's text as the
// headless tool finds them) replace that file's breakpoints in VS Code's own list, where the user
// sees them, and each running VS Code session's adapter says which it verified and why not. The
// headless tool also keeps them, so a headless session started later gets the same breakpoints.
import type { ToolContext } from "../../../capabilities/context.ts";
import type { WireBreakpointVerdict } from "../../../extension/protocol-debug.ts";
import { linesOf } from "../apply-breakpoints.ts";
import type { BreakpointReport, BreakpointSpec, FunctionBreakpointSpec } from "../breakpoint-specs.ts";

export interface BreakpointsInput {
  file?: string | undefined;
  breakpoints?: BreakpointSpec[] | undefined;
  functions?: FunctionBreakpointSpec[] | undefined;
}

const ANSWER_WAIT_MS = 5_000;

export async function breakpointsInVSCode(
  input: BreakpointsInput,
  ctx: ToolContext,
  headless: { breakpoints: BreakpointReport[]; sessions: string[] },
): Promise<{ breakpoints: BreakpointReport[]; sessions: string[] }> {
  const path = input.file === undefined ? undefined : await ctx.fs.resolve(input.file);
  const lines = path === undefined || input.breakpoints === undefined ? [] : await linesOf(ctx, { path, specs: input.breakpoints });
  const r = await ctx.extension.request(
    "extension/setBreakpoints",
    {
      ...(path === undefined ? {} : { filePath: path }),
      ...(input.breakpoints === undefined
        ? {}
        : { breakpoints: input.breakpoints.map((b, i) => ({ ...definedWhen(b), line: lines[i] ?? 1 })) }),
      ...(input.functions === undefined ? {} : { functions: input.functions.map((f) => ({ name: f.name, ...definedWhen(f) })) }),
      waitMs: ANSWER_WAIT_MS,
    },
    { signal: ctx.signal },
  );
  const shown = path === undefined ? undefined : ctx.fs.relative(path);
  const reports: BreakpointReport[] = [];
  const fileReports = (input.breakpoints ?? []).map((_, i): BreakpointReport => {
    const line = lines[i] ?? 1;
    const verdicts = r.verdicts.filter((x) => x.filePath === path && x.line === line);
    const best = verdicts.find((x) => x.verified) ?? verdicts[0];
    if (best === undefined)
      return r.sessions.length === 0
        ? { file: shown ?? "", line, status: "pending" }
        : { file: shown ?? "", line, status: "unverified", message: "VS Code's debugger has not answered for it" };
    return { ...verdictReport(best), file: shown ?? "", line };
  });
  reports.push(...fileReports);
  for (const f of input.functions ?? []) {
    const best = r.verdicts.find((x) => x.function === f.name);
    reports.push(
      best === undefined
        ? { function: f.name, status: r.sessions.length === 0 ? "pending" : "unverified" }
        : {
            function: f.name,
            status: best.verified ? "verified" : "unverified",
            ...(best.message === undefined ? {} : { message: best.message }),
          },
    );
  }
  // Headless sessions running too: their adapters' verdicts as well.
  if (headless.sessions.length > 0) reports.push(...headless.breakpoints);
  return { breakpoints: reports, sessions: [...r.sessions, ...headless.sessions] };
}

/** The adapter's verdict as the headless tools report a breakpoint (the place is the caller's to set). */
export function verdictReport(b: WireBreakpointVerdict): BreakpointReport {
  return {
    status: b.verified ? "verified" : "unverified",
    ...(b.boundLine === undefined ? {} : { boundLine: b.boundLine }),
    ...(b.message === undefined
      ? b.verified
        ? {}
        : { message: "the debugger found no code for it (yet: a module not loaded, or a line without code)" }
      : { message: b.message }),
    ...(b.id === undefined ? {} : { id: b.id }),
  };
}

function definedWhen(b: { condition?: string | undefined; hitCondition?: string | undefined; logMessage?: string | undefined }) {
  return {
    ...(b.condition === undefined ? {} : { condition: b.condition }),
    ...(b.hitCondition === undefined ? {} : { hitCondition: b.hitCondition }),
    ...(b.logMessage === undefined ? {} : { logMessage: b.logMessage }),
  };
}
