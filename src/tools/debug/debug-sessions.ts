// The debug toolset's state: the debug sessions each MCP session started, and the breakpoints it set
// (kept before a session starts, as an editor keeps them, and applied to every session it starts).
// A session's debug sessions end with it (its adapter's whole process tree killed), and all of them
// end when the bridge stops.
import { ToolError } from "../../errors.ts";
import type { DebugSession } from "../../dap/debug-session.ts";
import { defineToolsetState, type ToolsetState } from "../../capabilities/toolset-state.ts";
import type { BreakpointSpec, FunctionBreakpointSpec } from "./breakpoint-specs.ts";

/** Debug sessions running at once across the bridge: each is an adapter plus the program it runs. */
export const MAX_DEBUG_SESSIONS = 4;

export interface HeldSession {
  readonly session: DebugSession;
  readonly owner: string;
  readonly program: string;
}

interface OwnerBreakpoints {
  /** Absolute file path -> its breakpoints, in the order given. */
  readonly files: Map<string, BreakpointSpec[]>;
  functions: FunctionBreakpointSpec[];
}

export class DebugSessions implements ToolsetState {
  private readonly sessions = new Map<string, HeldSession>();
  private readonly breakpoints = new Map<string, OwnerBreakpoints>();
  private counter = 0;

  nextId(): string {
    this.counter += 1;
    return `debug-${this.counter}`;
  }

  /** Refuses a new session past the limit (ended sessions do not count, and are dropped here). */
  reserve(): void {
    for (const [id, held] of this.sessions) if (held.session.runState.kind === "ended") this.sessions.delete(id);
    if (this.sessions.size >= MAX_DEBUG_SESSIONS) {
      throw new ToolError("limit_reached", `${MAX_DEBUG_SESSIONS} debug sessions are already running`, {
        suggestion: "End one with stopDebugging first.",
      });
    }
  }

  add(held: HeldSession): void {
    this.sessions.set(held.session.id, held);
  }

  /** The caller's session by id, or its most recent one when no id is given. */
  get(owner: string, id: string | undefined): HeldSession {
    const mine = [...this.sessions.values()].filter((h) => h.owner === owner);
    const held = id === undefined ? mine.at(-1) : mine.find((h) => h.session.id === id);
    if (held === undefined) {
      throw new ToolError("debug_session_not_found", id === undefined ? "No debug session is running" : `No debug session ${id}`, {
        suggestion: mine.length > 0 ? `Running: ${mine.map((h) => h.session.id).join(", ")}.` : "Start one with startDebugging.",
      });
    }
    return held;
  }

  /** The caller's sessions that have not ended (breakpoints changes go to all of them). */
  live(owner: string): HeldSession[] {
    return [...this.sessions.values()].filter((h) => h.owner === owner && h.session.runState.kind !== "ended");
  }

  async remove(held: HeldSession): Promise<void> {
    this.sessions.delete(held.session.id);
    await held.session.stop();
  }

  breakpointsOf(owner: string): OwnerBreakpoints {
    let found = this.breakpoints.get(owner);
    if (found === undefined) {
      found = { files: new Map(), functions: [] };
      this.breakpoints.set(owner, found);
    }
    return found;
  }

  releaseSession(owner: string): void {
    this.breakpoints.delete(owner);
    for (const held of [...this.sessions.values()]) {
      if (held.owner === owner) void this.remove(held).catch(() => {});
    }
  }

  dispose(): void {
    this.breakpoints.clear();
    for (const held of [...this.sessions.values()]) void this.remove(held).catch(() => {});
  }
}

export const DEBUG_SESSIONS = defineToolsetState("debug", () => new DebugSessions());
