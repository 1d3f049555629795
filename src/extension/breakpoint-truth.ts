// What a "verified" breakpoint really means. js-debug answers verified for a line with no code (V8
// binds it to the next place it can stop, or to the script's end), at the line asked; an adapter
// without function breakpoints is never asked for them (VS Code drops them) and so answers nothing.
// So a verified line breakpoint is checked against the adapter's own breakpointLocations (asked of
// every session of the family, see stopsIn): none on the line means it moved to the next line with
// one, or, with none after it, binds to no code of the file; and a function breakpoint in a session
// whose adapter takes none says so. It lives beside the protocol (the extension bundles it) and sees
// the extension's tracked sessions through the few fields it reads, so it is tested without VS Code.
import type { WireBreakpointVerdict } from "./protocol-debug.ts";

/** A debug session as the check uses it (vscode.DebugSession has these). */
interface Asker {
  readonly type: string;
  customRequest(command: string, args: unknown): PromiseLike<unknown>;
}
/** One session of a family in the extension's tracker (extension/src/debug-tracker.ts). */
export interface TrackedSession {
  session: Asker;
  state: { kind: string };
  supportsFunctionBreakpoints: boolean;
}
/** The family's debug type (its root session's), named in the answers. */
interface FamilyType {
  type: string;
}

/** How far past the line the next stopping place is looked for. */
const LOOKAHEAD_LINES = 200;

/** The verdicts of a family's sessions (`sessions`), each verified line checked against the adapter's stopping places. */
export async function trueVerdicts(
  sessions: TrackedSession[],
  verdicts: WireBreakpointVerdict[],
  family: FamilyType,
): Promise<WireBreakpointVerdict[]> {
  const members = sessions.filter((m) => m.state.kind !== "ended");
  const stopsByFile = new Map<string, Promise<number[] | undefined>>();
  const last = Math.max(0, ...verdicts.map((x) => x.line ?? 0)) + LOOKAHEAD_LINES;
  return Promise.all(
    verdicts.map(async (x) => {
      const line = x.line;
      if (x.filePath === undefined || line === undefined || !x.verified || x.boundLine !== undefined) return x;
      let pending = stopsByFile.get(x.filePath);
      if (pending === undefined) {
        pending = stopsIn(members, x.filePath, last);
        stopsByFile.set(x.filePath, pending);
      }
      const stops = await pending;
      if (stops === undefined || stops.includes(line)) return x;
      const next = stops.filter((l) => l > line && l <= line + LOOKAHEAD_LINES).sort((a, b) => a - b)[0];
      if (next !== undefined)
        return { ...x, boundLine: next, message: `line ${x.line} has no code; the debugger moved the breakpoint to line ${next}` };
      return {
        ...x,
        verified: false,
        message: `line ${x.line} has no code, and no line after it has code; ${family.type} reported it set, but it stops at no line of this file there`,
      };
    }),
  );
}

/**
 * The lines of the file where the family's adapters can stop, up to `last`, or undefined when none
 * could say. Every live member is asked: which one loaded the script is not known (js-debug's
 * launcher session answers an empty list for every file, its child session the real places), so an
 * empty answer counts for nothing.
 */
async function stopsIn(members: TrackedSession[], path: string, last: number): Promise<number[] | undefined> {
  const answers = await Promise.all(members.map((m) => locations(m.session, path, 1, last)));
  const known = answers.filter((a): a is number[] => a !== undefined && a.length > 0);
  return known.length === 0 ? undefined : known.flat();
}

/** Verdicts for function breakpoints the family's adapter cannot take (VS Code does not send them). */
export function functionsNotSupported(sessions: TrackedSession[], names: readonly string[], family: FamilyType): WireBreakpointVerdict[] {
  const members = sessions.filter((m) => m.state.kind !== "ended");
  if (members.length === 0 || members.some((m) => m.supportsFunctionBreakpoints)) return [];
  return names.map((name) => ({
    function: name,
    verified: false,
    message: `the ${family.type} debugger does not support function breakpoints: set a line breakpoint in the function instead`,
  }));
}

/**
 * The lines with a stopping place in [line, endLine], or undefined when the adapter did not answer.
 * Asked to the start of the next line: js-debug reads a range without columns as ending at column 1
 * of endLine (so line..line is empty), where DAP means the whole of endLine; both cover it this way.
 */
async function locations(session: Asker, path: string, line: number, endLine: number): Promise<number[] | undefined> {
  try {
    const body = (await session.customRequest("breakpointLocations", { source: { path }, line, endLine: endLine + 1 })) as
      | { breakpoints?: { line: number }[] }
      | undefined;
    return body?.breakpoints?.map((b) => b.line).filter((l) => l >= line && l <= endLine);
  } catch {
    return undefined;
  }
}
