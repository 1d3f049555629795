// What the extension knows of every VS Code debug session, from the DAP messages between VS Code and
// the adapter (a tracker for every debug type): whether the program runs, stopped (why, which
// thread) or ended (its exit code), what it printed, and the adapter's verdict on each breakpoint.
// A family is a top-level session and its children (js-debug runs the program in a child session):
// the bridge names the family, and requests go to the member that stopped.
import * as vscode from "vscode";
import type { WireBreakpointVerdict, WireDebugSession, WireRunState } from "../../src/extension/protocol-debug.ts";

const MAX_OUTPUT_CHARS = 256 * 1024;
const OUTPUT_CATEGORIES = new Set(["stdout", "stderr", "console", undefined]);

interface DapMessage {
  type?: string;
  seq?: number;
  command?: string;
  request_seq?: number;
  success?: boolean;
  event?: string;
  arguments?: { source?: { path?: string }; breakpoints?: { line?: number; name?: string }[] };
  body?: {
    reason?: string;
    threadId?: number;
    description?: string;
    text?: string;
    exitCode?: number;
    category?: string;
    output?: string;
    supportsExceptionInfoRequest?: boolean;
    supportsFunctionBreakpoints?: boolean;
    breakpoints?: AdapterBreakpoint[];
    breakpoint?: AdapterBreakpoint;
    hitBreakpointIds?: number[];
  };
}
interface AdapterBreakpoint {
  id?: number;
  verified?: boolean;
  line?: number;
  message?: string;
}

export interface Member {
  session: vscode.DebugSession;
  state: WireRunState;
  supportsExceptionInfo: boolean;
  /** The adapter takes function breakpoints (VS Code sends it none otherwise). */
  supportsFunctionBreakpoints: boolean;
  /** The adapter's verdicts by file path (or "fn:" + name), in the order it last received them. */
  verdicts: Map<string, WireBreakpointVerdict[]>;
  /** setBreakpoints answers seen, for a wait on the adapter's answer to a change. */
  answers: number;
}

export interface Family {
  id: string;
  root: vscode.DebugSession;
  startedByBridge: boolean;
  output: string;
  /** Characters dropped from the front of `output`. */
  dropped: number;
  exitCode?: number;
  ended: boolean;
}

export class DebugTracker implements vscode.Disposable {
  private readonly members = new Map<string, Member>();
  private readonly families = new Map<string, Family>();
  private readonly waiters = new Set<() => void>();
  private readonly pendingBreakpoints = new Map<string, DapMessage>();
  private readonly subs: vscode.Disposable[];
  private counter = 0;
  /** Sessions the bridge is starting now: their family is marked as the bridge's. */
  bridgeStarting = 0;

  constructor(private readonly push: (phase: "start" | "end", family: Family, exitCode?: number) => void) {
    this.subs = [
      vscode.debug.registerDebugAdapterTrackerFactory("*", {
        createDebugAdapterTracker: (session) => this.trackerFor(session),
      }),
      vscode.debug.onDidStartDebugSession((session) => {
        const family = this.familyOf(session);
        if (session.parentSession === undefined && family !== undefined) this.push("start", family);
      }),
      vscode.debug.onDidTerminateDebugSession((session) => {
        this.end(session, "the debug session ended");
        const family = this.families.get(session.id);
        if (family !== undefined && !family.ended) {
          family.ended = true;
          this.push("end", family, family.exitCode);
        }
        this.changed();
      }),
    ];
  }

  private trackerFor(session: vscode.DebugSession): vscode.DebugAdapterTracker {
    const member: Member = {
      session,
      state: { kind: "running" },
      supportsExceptionInfo: false,
      supportsFunctionBreakpoints: false,
      verdicts: new Map(),
      answers: 0,
    };
    this.members.set(session.id, member);
    if (session.parentSession === undefined) {
      this.counter += 1;
      this.families.set(session.id, {
        id: `vscode-${this.counter}`,
        root: session,
        startedByBridge: this.bridgeStarting > 0,
        output: "",
        dropped: 0,
        ended: false,
      });
    }
    return {
      onWillReceiveMessage: (m: DapMessage) => {
        if (m.type === "request" && (m.command === "setBreakpoints" || m.command === "setFunctionBreakpoints") && m.seq !== undefined)
          this.pendingBreakpoints.set(`${session.id}:${m.seq}`, m);
      },
      onDidSendMessage: (m: DapMessage) => this.fromAdapter(member, m),
      onExit: (code) => {
        if (code !== undefined) this.setExit(session, code);
        this.end(session, "the debug adapter exited");
      },
    };
  }

  private fromAdapter(member: Member, m: DapMessage): void {
    const body = m.body ?? {};
    if (m.type === "response") {
      if (m.command === "initialize") {
        member.supportsExceptionInfo = body.supportsExceptionInfoRequest === true;
        member.supportsFunctionBreakpoints = body.supportsFunctionBreakpoints === true;
      }
      const key = `${member.session.id}:${m.request_seq}`;
      const request = this.pendingBreakpoints.get(key);
      if (request !== undefined) {
        this.pendingBreakpoints.delete(key);
        this.recordVerdicts(member, request, m.success === true ? (body.breakpoints ?? []) : []);
      }
      return;
    }
    if (m.type !== "event") return;
    switch (m.event) {
      case "stopped":
        // Stopping at a breakpoint proves the adapter bound it, whatever it answered before the code loaded.
        for (const id of body.hitBreakpointIds ?? []) this.updateVerdict(member, { id, verified: true });
        member.state = {
          kind: "stopped",
          reason: body.reason ?? "unknown",
          ...(body.threadId === undefined ? {} : { threadId: body.threadId }),
          ...(body.description === undefined ? {} : { description: body.description }),
          ...(body.text === undefined ? {} : { text: body.text }),
        };
        break;
      case "continued":
        if (member.state.kind !== "ended") member.state = { kind: "running" };
        break;
      case "exited":
        if (body.exitCode !== undefined) this.setExit(member.session, body.exitCode);
        break;
      case "terminated":
        this.end(member.session, "the program ended");
        break;
      case "output":
        if (OUTPUT_CATEGORIES.has(body.category) && body.output !== undefined) this.appendOutput(member.session, body.output);
        return;
      case "breakpoint":
        if (body.breakpoint !== undefined) this.updateVerdict(member, body.breakpoint);
        break;
      default:
        return;
    }
    this.changed();
  }

  private recordVerdicts(member: Member, request: DapMessage, answers: AdapterBreakpoint[]): void {
    const asked = request.arguments?.breakpoints ?? [];
    const path = request.arguments?.source?.path;
    const verdicts = asked.map((b, i): WireBreakpointVerdict => {
      const a = answers[i];
      const where = path === undefined ? { function: b.name ?? "" } : { filePath: path, line: b.line ?? 0 };
      if (a === undefined) return { ...where, verified: false, message: "the debug adapter did not answer for it" };
      return verdict(where, a);
    });
    member.verdicts.set(path ?? "fn:", verdicts);
    member.answers += 1;
    this.changed();
  }

  private updateVerdict(member: Member, bp: AdapterBreakpoint): void {
    for (const [key, list] of member.verdicts) {
      const i = list.findIndex((x) => x.id !== undefined && x.id === bp.id);
      const old = list[i];
      if (old === undefined) continue;
      const where = old.filePath === undefined ? { function: old.function ?? "" } : { filePath: old.filePath, line: old.line ?? 0 };
      const updated = [...list];
      updated[i] = verdict(where, { ...bp, line: bp.line ?? old.boundLine ?? old.line });
      member.verdicts.set(key, updated);
    }
  }

  private setExit(session: vscode.DebugSession, code: number): void {
    const family = this.familyOf(session);
    if (family !== undefined) family.exitCode = code;
  }

  private end(session: vscode.DebugSession, why: string): void {
    const member = this.members.get(session.id);
    if (member === undefined || member.state.kind === "ended") return;
    const exitCode = this.familyOf(session)?.exitCode;
    member.state = { kind: "ended", why, ...(exitCode === undefined ? {} : { exitCode }) };
    this.changed();
  }

  private appendOutput(session: vscode.DebugSession, text: string): void {
    const family = this.familyOf(session);
    if (family === undefined) return;
    family.output += text;
    if (family.output.length > MAX_OUTPUT_CHARS) {
      const cut = family.output.length - MAX_OUTPUT_CHARS;
      family.output = family.output.slice(cut);
      family.dropped += cut;
    }
  }

  private changed(): void {
    for (const w of [...this.waiters]) w();
  }

  familyOf(session: vscode.DebugSession): Family | undefined {
    let root = session;
    while (root.parentSession !== undefined) root = root.parentSession;
    return this.families.get(root.id);
  }

  family(id: string): Family | undefined {
    return [...this.families.values()].find((f) => f.id === id);
  }

  allFamilies(): Family[] {
    return [...this.families.values()];
  }

  /** The members of a family, the root first. */
  membersOf(family: Family): Member[] {
    return [...this.members.values()].filter((m) => this.familyOf(m.session) === family);
  }

  /** The member requests go to: the one that stopped, else the newest live child, else the root. */
  focus(family: Family): Member | undefined {
    const members = this.membersOf(family);
    return (
      members.find((m) => m.state.kind === "stopped") ??
      members.filter((m) => m.state.kind !== "ended" && m.session.parentSession !== undefined).at(-1) ??
      members[0]
    );
  }

  /** The family's state: a stopped member's, else running while the root lives, else ended. */
  stateOf(family: Family): WireRunState {
    const members = this.membersOf(family);
    const stopped = members.find((m) => m.state.kind === "stopped");
    if (stopped !== undefined) return stopped.state;
    const root = members[0];
    if (family.ended || root === undefined || root.state.kind === "ended")
      return {
        kind: "ended",
        why: root?.state.why ?? "the debug session ended",
        ...(family.exitCode === undefined ? {} : { exitCode: family.exitCode }),
      };
    return { kind: "running" };
  }

  wire(family: Family): WireDebugSession {
    return {
      id: family.id,
      name: family.root.name,
      type: family.root.type,
      state: this.stateOf(family),
      active: this.membersOf(family).some((m) => m.session.id === vscode.debug.activeDebugSession?.id),
      startedByBridge: family.startedByBridge,
      supportsExceptionInfo: this.focus(family)?.supportsExceptionInfo ?? false,
      outputEnd: family.dropped + family.output.length,
    };
  }

  /** The latest verdicts of the family's members, one per breakpoint (a verified answer wins). */
  verdictsOf(family: Family, key?: string): WireBreakpointVerdict[] {
    const byPlace = new Map<string, WireBreakpointVerdict>();
    for (const member of this.membersOf(family)) {
      for (const [file, list] of member.verdicts) {
        if (key !== undefined && file !== key) continue;
        for (const x of list) {
          const place = `${x.filePath ?? ""}:${x.line ?? x.function}`;
          const known = byPlace.get(place);
          if (known === undefined || (!known.verified && x.verified)) byPlace.set(place, x);
        }
      }
    }
    return [...byPlace.values()];
  }

  answersOf(family: Family): number {
    return this.membersOf(family).reduce((n, m) => n + m.answers, 0);
  }

  /** Resolves when `done()` holds (checked on every change) or after ms; true when it held. */
  until(done: () => boolean, ms: number): Promise<boolean> {
    if (done()) return Promise.resolve(true);
    return new Promise((resolve) => {
      const check = () => {
        if (!done()) return;
        finish(true);
      };
      const finish = (held: boolean) => {
        clearTimeout(timer);
        this.waiters.delete(check);
        resolve(held);
      };
      const timer = setTimeout(() => finish(false), ms);
      this.waiters.add(check);
    });
  }

  /** Marks the family's members running (before a run control), so the next stop is a change. */
  markRunning(family: Family): void {
    for (const m of this.membersOf(family)) if (m.state.kind === "stopped") m.state = { kind: "running" };
  }

  dispose(): void {
    for (const s of this.subs) s.dispose();
    for (const w of [...this.waiters]) w();
  }
}

function verdict(where: { filePath?: string; line?: number; function?: string }, a: AdapterBreakpoint): WireBreakpointVerdict {
  const out: WireBreakpointVerdict = { ...where, verified: a.verified === true };
  if (a.id !== undefined) out.id = a.id;
  if (a.line !== undefined && a.line !== where.line) out.boundLine = a.line;
  if (a.message !== undefined && a.message !== "") out.message = a.message;
  return out;
}
