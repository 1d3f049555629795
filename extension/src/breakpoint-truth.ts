// What a "verified" breakpoint really means. js-debug answers verified for a line with no code (V8
// binds it to the next place it can stop, or to the script's end), at the line asked; an adapter
// without function breakpoints is never asked for them (VS Code drops them) and so answers nothing.
// So a verified line breakpoint is checked against the adapter's own breakpointLocations: none on
// the line means it moved to the next line with one, or, with none after it, binds to no code of the
// file; and a function breakpoint in a session whose adapter takes none says so.
import type * as vscode from "vscode";
import type { WireBreakpointVerdict } from "../../src/extension/protocol-debug.ts";
import type { DebugTracker, Family, Member } from "./debug-tracker.ts";

/** How far past the line the next stopping place is looked for. */
const LOOKAHEAD_LINES = 200;

export async function trueVerdicts(
  tracker: DebugTracker,
  family: Family,
  verdicts: WireBreakpointVerdict[],
): Promise<WireBreakpointVerdict[]> {
  const members = tracker.membersOf(family).filter((m) => m.state.kind !== "ended");
  const locator =
    members.find((m) => m.supportsBreakpointLocations && m.session.parentSession !== undefined) ??
    members.find((m) => m.supportsBreakpointLocations);
  return Promise.all(
    verdicts.map(async (x) => {
      if (x.filePath === undefined || x.line === undefined || !x.verified || x.boundLine !== undefined || locator === undefined) return x;
      const here = await locations(locator.session, x.filePath, x.line, x.line);
      if (here === undefined || here.length > 0) return x;
      const next = (await locations(locator.session, x.filePath, x.line + 1, x.line + LOOKAHEAD_LINES))?.sort((a, b) => a - b)[0];
      if (next !== undefined)
        return { ...x, boundLine: next, message: `line ${x.line} has no code; the debugger moved the breakpoint to line ${next}` };
      return {
        ...x,
        verified: false,
        message: `line ${x.line} has no code, nor has any line after it; ${locator.session.type} reported it set, but it stops at no line of this file there`,
      };
    }),
  );
}

/** Verdicts for function breakpoints the family's adapter cannot take (VS Code does not send them). */
export function functionsNotSupported(tracker: DebugTracker, family: Family, names: readonly string[]): WireBreakpointVerdict[] {
  const members: Member[] = tracker.membersOf(family).filter((m) => m.state.kind !== "ended");
  if (members.length === 0 || members.some((m) => m.supportsFunctionBreakpoints)) return [];
  return names.map((name) => ({
    function: name,
    verified: false,
    message: `the ${family.root.type} debugger does not support function breakpoints: set a line breakpoint in the function instead`,
  }));
}

/** The lines with a stopping place in [line, endLine], or undefined when the adapter did not answer. */
async function locations(session: vscode.DebugSession, path: string, line: number, endLine: number): Promise<number[] | undefined> {
  try {
    const body = (await session.customRequest("breakpointLocations", { source: { path }, line, endLine })) as
      | { breakpoints?: { line: number }[] }
      | undefined;
    return body?.breakpoints?.map((b) => b.line).filter((l) => l >= line && l <= endLine);
  } catch {
    return undefined;
  }
}
