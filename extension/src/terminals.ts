// VS Code's terminals for the bridge: each gets an id; what the commands run in it print (read
// through shell integration, the only output VS Code's stable API gives an extension) is kept in a
// bounded buffer per terminal, so output can be read later and waited on. A command runs through
// shell integration when the shell has it (exit code and output), and is typed as text otherwise
// (the answer says so). Terminals the bridge created are created without the user's secrets in
// their environment, and only those can be disposed by the bridge.
import * as vscode from "vscode";
import { terminalText } from "../../src/extension/ansi.ts";
import type { ParamsOf, ResultOf } from "../../src/extension/protocol.ts";
import { MAX_TERMINAL_BUFFER_CHARS, type WireTerminal } from "../../src/extension/protocol-ide.ts";
import { looksSecretName, looksSecretValue } from "../../src/security/commands/secret-names.ts";
import { Failure } from "./failure.ts";

interface Entry {
  id: string;
  terminal: vscode.Terminal;
  createdByBridge: boolean;
  /** When this window saw the terminal open (Date.now()). */
  openedAt: number;
  buffer: string;
  /** Offset of buffer[0] in everything captured. */
  start: number;
  closed: boolean;
  wake: Set<() => void>;
}

/** Closed terminals whose output can still be read. */
const KEEP_CLOSED = 20;
/** After a command ends, how long its last output may take to arrive. */
const DRAIN_MS = 2_000;
/** Shells VS Code has no shell integration for (its script covers bash, zsh, fish and pwsh). */
const SHELLS_WITHOUT_INTEGRATION = new Set(["sh", "csh", "ksh", "cmd"]);

export class Terminals implements vscode.Disposable {
  private readonly byTerminal = new Map<vscode.Terminal, Entry>();
  private readonly byId = new Map<string, Entry>();
  private readonly reading = new Map<vscode.TerminalShellExecution, Promise<void>>();
  /** Commands started and not yet ended, per terminal: a busy terminal gets no second command typed into its program. */
  private readonly running = new Map<vscode.Terminal, Set<vscode.TerminalShellExecution>>();
  private readonly subs: vscode.Disposable[];
  private next = 1;

  constructor() {
    for (const t of vscode.window.terminals) this.entry(t, false);
    this.subs = [
      vscode.window.onDidOpenTerminal((t) => this.entry(t, false)),
      vscode.window.onDidCloseTerminal((t) => this.closed(t)),
      vscode.window.onDidStartTerminalShellExecution((e) => {
        this.runningIn(e.terminal).add(e.execution);
        this.capture(e.terminal, e.execution);
      }),
      vscode.window.onDidEndTerminalShellExecution((e) => this.runningIn(e.terminal).delete(e.execution)),
    ];
  }

  dispose(): void {
    for (const s of this.subs) s.dispose();
  }

  async create(p: ParamsOf<"extension/createTerminal">): Promise<ResultOf<"extension/createTerminal">> {
    // null removes a variable from what the terminal inherits from VS Code.
    const env: Record<string, string | null> = {};
    for (const [name, value] of Object.entries(process.env)) {
      if (value === undefined || p.passEnv.includes(name)) continue;
      if (looksSecretName(name) || looksSecretValue(value)) env[name] = null;
    }
    Object.assign(env, p.env);
    const terminal = vscode.window.createTerminal({ name: p.name, cwd: vscode.Uri.file(p.cwd), env });
    const entry = this.entry(terminal, true);
    if (p.show) terminal.show(true);
    return { terminal: await this.wire(entry) };
  }

  async list(): Promise<ResultOf<"extension/listTerminals">> {
    const live = vscode.window.terminals.map((t) => this.entry(t, false));
    return { terminals: await Promise.all(live.map((e) => this.wire(e))) };
  }

  async command(p: ParamsOf<"extension/terminalCommand">): Promise<ResultOf<"extension/terminalCommand">> {
    const entry = this.find(p.id);
    if (entry.closed) throw new Failure("tool_failed", `Terminal ${p.id} has exited`, "Create a new one with createTerminal.");
    const busy = this.runningIn(entry.terminal).size > 0;
    if (busy)
      throw new Failure(
        "tool_failed",
        `Terminal ${p.id} ("${entry.terminal.name}") is still running a command; a new one would be typed into that program`,
        "Run it in another terminal (createTerminal), or end the running one first (disposeTerminal for the bridge's own).",
      );
    const integration =
      entry.terminal.shellIntegration ?? (await shellIntegration(entry.terminal, integrationWait(entry, p.integrationWaitMs)));
    const since = entry.start + entry.buffer.length;
    if (integration === undefined) {
      entry.terminal.sendText(p.commandLine, true);
      return { mode: "sendText", finished: false, since };
    }
    let execution: vscode.TerminalShellExecution | undefined;
    const ended = new Promise<number | undefined>((resolve) => {
      const sub = vscode.window.onDidEndTerminalShellExecution((e) => {
        if (e.execution !== execution) return;
        sub.dispose();
        resolve(e.exitCode);
      });
    });
    execution = integration.executeCommand(p.commandLine);
    this.runningIn(entry.terminal).add(execution);
    this.capture(entry.terminal, execution);
    const exit = await within(ended, p.waitMs);
    if (exit.done) await within(this.reading.get(execution) ?? Promise.resolve(), DRAIN_MS);
    const from = Math.max(since, entry.start);
    return {
      mode: "shellIntegration",
      finished: exit.done,
      ...(exit.done ? { exitCode: exit.value ?? null } : {}),
      output: entry.buffer.slice(from - entry.start),
      outputDropped: from > since,
      since,
    };
  }

  async output(p: ParamsOf<"extension/terminalOutput">): Promise<ResultOf<"extension/terminalOutput">> {
    const entry = this.find(p.id);
    const end = () => entry.start + entry.buffer.length;
    const since = p.since ?? entry.start;
    if (since >= end() && !entry.closed && (p.waitMs ?? 0) > 0) {
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          entry.wake.delete(done);
          resolve();
        };
        const timer = setTimeout(done, p.waitMs);
        entry.wake.add(done);
      });
    }
    const from = Math.max(since, entry.start);
    return {
      text: entry.buffer.slice(Math.min(from, end()) - entry.start),
      next: end(),
      dropped: since < entry.start,
      shellIntegration: entry.terminal.shellIntegration !== undefined,
      exited: entry.closed,
    };
  }

  disposeTerminal(id: string): ResultOf<"extension/disposeTerminal"> {
    const entry = this.byId.get(id);
    if (entry === undefined) return { disposed: false };
    if (!entry.createdByBridge)
      throw new Failure(
        "permission_denied",
        `Terminal ${id} ("${entry.terminal.name}") is the user's, not one the bridge created`,
        "Only terminals made with createTerminal or runInTerminal can be disposed by the bridge.",
      );
    entry.terminal.dispose();
    this.forget(entry);
    return { disposed: true };
  }

  private runningIn(terminal: vscode.Terminal): Set<vscode.TerminalShellExecution> {
    let set = this.running.get(terminal);
    if (set === undefined) {
      set = new Set();
      this.running.set(terminal, set);
    }
    return set;
  }

  private entry(terminal: vscode.Terminal, createdByBridge: boolean): Entry {
    const known = this.byTerminal.get(terminal);
    if (known !== undefined) {
      if (createdByBridge) known.createdByBridge = true;
      return known;
    }
    const entry: Entry = {
      id: `t${this.next++}`,
      terminal,
      createdByBridge,
      openedAt: Date.now(),
      buffer: "",
      start: 0,
      closed: false,
      wake: new Set(),
    };
    this.byTerminal.set(terminal, entry);
    this.byId.set(entry.id, entry);
    return entry;
  }

  private find(id: string): Entry {
    const entry = this.byId.get(id);
    if (entry === undefined)
      throw new Failure(
        "terminal_not_found",
        `No terminal ${id} in this VS Code window`,
        "listTerminals gives the terminals and their ids.",
      );
    return entry;
  }

  private capture(terminal: vscode.Terminal, execution: vscode.TerminalShellExecution): void {
    if (this.reading.has(execution)) return;
    const entry = this.entry(terminal, false);
    const read = (async () => {
      for await (const data of execution.read()) this.append(entry, terminalText(data));
    })().catch(() => undefined);
    this.reading.set(execution, read);
    void read.finally(() => this.reading.delete(execution));
  }

  private append(entry: Entry, text: string): void {
    if (text === "") return;
    entry.buffer += text;
    const over = entry.buffer.length - MAX_TERMINAL_BUFFER_CHARS;
    if (over > 0) {
      entry.buffer = entry.buffer.slice(over);
      entry.start += over;
    }
    for (const wake of [...entry.wake]) wake();
  }

  private closed(terminal: vscode.Terminal): void {
    const entry = this.byTerminal.get(terminal);
    if (entry === undefined) return;
    entry.closed = true;
    this.byTerminal.delete(terminal);
    this.running.delete(terminal);
    for (const wake of [...entry.wake]) wake();
    const closed = [...this.byId.values()].filter((e) => e.closed);
    for (const old of closed.slice(0, Math.max(0, closed.length - KEEP_CLOSED))) this.forget(old);
  }

  private forget(entry: Entry): void {
    this.byTerminal.delete(entry.terminal);
    this.byId.delete(entry.id);
  }

  private async wire(entry: Entry): Promise<WireTerminal> {
    const pid = (await within(Promise.resolve(entry.terminal.processId), 2_000)).value;
    const status = entry.terminal.exitStatus;
    return {
      id: entry.id,
      name: entry.terminal.name,
      ...(pid === undefined ? {} : { processId: pid }),
      shellIntegration: entry.terminal.shellIntegration !== undefined,
      ...(entry.terminal.state.shell === undefined ? {} : { shell: entry.terminal.state.shell }),
      createdByBridge: entry.createdByBridge,
      active: vscode.window.activeTerminal === entry.terminal,
      ...(status === undefined ? {} : { exitCode: status.code ?? null }),
    };
  }
}

/**
 * How long a command still waits for the terminal's shell integration. It starts with the shell's
 * first prompt, soon after the terminal opens: a terminal that has none `waitMs` after it opened
 * (integration turned off, a shell without it) will not get it, and each command typed into it
 * would otherwise wait the whole `waitMs` for nothing.
 */
function integrationWait(entry: Entry, waitMs: number): number {
  if (SHELLS_WITHOUT_INTEGRATION.has(entry.terminal.state.shell ?? "")) return 0;
  return Math.max(0, Math.min(waitMs, entry.openedAt + waitMs - Date.now()));
}

function shellIntegration(terminal: vscode.Terminal, waitMs: number): Promise<vscode.TerminalShellIntegration | undefined> {
  return new Promise((resolve) => {
    const done = (value: vscode.TerminalShellIntegration | undefined) => {
      clearTimeout(timer);
      sub.dispose();
      resolve(value);
    };
    const timer = setTimeout(() => done(terminal.shellIntegration), waitMs);
    const sub = vscode.window.onDidChangeTerminalShellIntegration((e) => {
      if (e.terminal === terminal) done(e.shellIntegration);
    });
  });
}

/** The promise's value if it settles within `ms`. */
async function within<T>(promise: Promise<T>, ms: number): Promise<{ done: boolean; value?: T }> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<{ done: false }>((resolve) => {
    timer = setTimeout(() => resolve({ done: false }), ms);
  });
  try {
    return await Promise.race([promise.then((value) => ({ done: true, value })), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
