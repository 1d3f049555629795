// Breakpoints as the model gives them (a line, or a line's text so it survives edits above it; a
// function name), and how they reach an adapter: DAP replaces all of a file's breakpoints at once,
// so each file's whole list is sent every time. The answer says for each whether the adapter
// verified it, where it bound (adapters move a breakpoint off a line without code), and why not.
import type { DebugProtocol } from "@vscode/debugprotocol";
import { ToolError } from "../../errors.ts";
import type { DebugSession } from "../../dap/debug-session.ts";

export interface BreakpointSpec {
  line?: number | undefined;
  /** Text the line contains: found afresh each time the breakpoint is applied. */
  text?: string | undefined;
  condition?: string | undefined;
  hitCondition?: string | undefined;
  logMessage?: string | undefined;
}

export interface FunctionBreakpointSpec {
  name: string;
  condition?: string | undefined;
  hitCondition?: string | undefined;
}

export interface BreakpointReport {
  file?: string;
  function?: string;
  /** The line asked for (or found by text). */
  line?: number;
  /** "pending": no session runs; it is applied when startDebugging starts one. */
  status: "verified" | "unverified" | "pending";
  /** Where the adapter bound it, when not the line asked for. */
  boundLine?: number;
  message?: string;
  id?: number;
}

/** The 1-based line of each spec in `text` (a file's content). */
export function resolveLines(specs: readonly BreakpointSpec[], source: { text: string; file: string }): number[] {
  const { text, file } = source;
  const lines = text.split(/\r?\n/);
  return specs.map((spec) => {
    if (spec.text === undefined) {
      const line = spec.line ?? 0;
      if (line < 1 || line > lines.length) {
        throw new ToolError("invalid_arguments", `${file} has ${lines.length} lines; line ${line} is not one of them`, {
          suggestion: "Give a line number inside the file, or the text of the line.",
        });
      }
      return line;
    }
    const wanted = spec.text;
    const hits = lines.flatMap((l, i) => (l.includes(wanted) ? [i + 1] : []));
    const near = spec.line === undefined ? hits : hits.filter((h) => h === spec.line);
    const chosen = hits.length === 1 ? hits : near;
    if (chosen.length !== 1) {
      throw new ToolError(
        hits.length === 0 ? "match_not_found" : "match_ambiguous",
        hits.length === 0
          ? `No line of ${file} contains ${JSON.stringify(wanted)}`
          : `${hits.length} lines of ${file} contain ${JSON.stringify(wanted)} (lines ${hits.slice(0, 10).join(", ")})`,
        {
          suggestion:
            hits.length === 0
              ? "Check the text (it is matched exactly, within one line)."
              : "Give more of the line's text, or the line number too.",
        },
      );
    }
    return chosen[0] ?? 0;
  });
}

/** Sends one file's breakpoints to a session; the reports follow `specs`' order. */
export async function applyFileBreakpoints(
  session: DebugSession,
  file: { path: string; shown: string },
  specs: { specs: readonly BreakpointSpec[]; lines: readonly number[] },
): Promise<BreakpointReport[]> {
  const caps = session.capabilities;
  const unsupported = specs.specs.map((s) =>
    s.logMessage !== undefined && caps.supportsLogPoints !== true
      ? "this debug adapter has no logpoints"
      : s.hitCondition !== undefined && caps.supportsHitConditionalBreakpoints !== true
        ? "this debug adapter has no hit counts"
        : s.condition !== undefined && caps.supportsConditionalBreakpoints !== true
          ? "this debug adapter has no conditions"
          : undefined,
  );
  const sent = specs.specs.flatMap((s, i) =>
    unsupported[i] !== undefined
      ? []
      : [
          {
            line: specs.lines[i] ?? 0,
            ...(s.condition === undefined ? {} : { condition: s.condition }),
            ...(s.hitCondition === undefined ? {} : { hitCondition: s.hitCondition }),
            ...(s.logMessage === undefined ? {} : { logMessage: s.logMessage }),
          },
        ],
  );
  const response = await session.connection.request<DebugProtocol.SetBreakpointsResponse>("setBreakpoints", {
    source: { path: file.path },
    breakpoints: sent,
  });
  const answers = [...response.body.breakpoints];
  return specs.specs.map((_, i) => {
    const line = specs.lines[i] ?? 0;
    const why = unsupported[i];
    if (why !== undefined) return { file: file.shown, line, status: "unverified", message: why };
    return report(answers.shift(), { file: file.shown, line });
  });
}

export async function applyFunctionBreakpoints(
  session: DebugSession,
  specs: readonly FunctionBreakpointSpec[],
): Promise<BreakpointReport[]> {
  if (specs.length === 0 && session.capabilities.supportsFunctionBreakpoints !== true) return [];
  if (session.capabilities.supportsFunctionBreakpoints !== true) {
    return specs.map((s) => ({ function: s.name, status: "unverified", message: "this debug adapter has no function breakpoints" }));
  }
  const response = await session.connection.request<DebugProtocol.SetFunctionBreakpointsResponse>("setFunctionBreakpoints", {
    breakpoints: specs.map((s) => ({
      name: s.name,
      ...(s.condition === undefined ? {} : { condition: s.condition }),
      ...(s.hitCondition === undefined ? {} : { hitCondition: s.hitCondition }),
    })),
  });
  return specs.map((s, i) => report(response.body.breakpoints[i], { function: s.name }));
}

function report(bp: DebugProtocol.Breakpoint | undefined, where: { file?: string; line?: number; function?: string }): BreakpointReport {
  if (bp === undefined) return { ...where, status: "unverified", message: "the debug adapter did not answer for it" };
  const out: BreakpointReport = { ...where, status: bp.verified ? "verified" : "unverified" };
  if (bp.id !== undefined) out.id = bp.id;
  if (bp.line !== undefined && bp.line !== where.line) out.boundLine = bp.line;
  if (bp.message !== undefined && bp.message !== "") out.message = bp.message;
  else if (!bp.verified) out.message = "the adapter found no code for it (yet: a module not loaded, or a line without code)";
  return out;
}
