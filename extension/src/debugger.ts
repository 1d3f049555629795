// The debugger requests of protocol 1.4 (protocol-debug.ts), carried out with vscode.debug: sessions
// start from a launch configuration (by name) or an inline one, breakpoints go into VS Code's own
// breakpoint list (the user sees them), and DAP requests go through the session's customRequest.
// DebugTracker says when the program stops or ends and what the adapter said of each breakpoint.
import * as vscode from "vscode";
import type { ParamsOf, ResultOf } from "../../src/extension/protocol.ts";
import { functionsNotSupported, trueVerdicts } from "../../src/extension/breakpoint-truth.ts";
import { DebugTracker, type Family } from "./debug-tracker.ts";
import { looksSecretName, looksSecretValue } from "../../src/security/commands/secret-names.ts";
import { Failure } from "./failure.ts";

const OUTPUT_TAIL_CHARS = 2000;
const JS_DEBUG_TYPES = new Set(["node", "pwa-node", "node-terminal"]);

export class Debugger implements vscode.Disposable {
  readonly tracker: DebugTracker;

  constructor(push: (params: { phase: "start" | "end"; id: string; name: string; type: string; exitCode?: number }) => void) {
    this.tracker = new DebugTracker((phase, family, exitCode) =>
      push({ phase, id: family.id, name: family.root.name, type: family.root.type, ...(exitCode === undefined ? {} : { exitCode }) }),
    );
  }

  async start(p: ParamsOf<"extension/debugStart">): Promise<ResultOf<"extension/debugStart">> {
    const folder = vscode.workspace.workspaceFolders?.[0];
    const what = p.configuration ?? p.name;
    if (what === undefined)
      throw new Failure(
        "invalid_arguments",
        "Give a launch configuration's name or an inline configuration",
        'E.g. {"configName": "Launch Program"}.',
      );
    if (p.configuration !== undefined && (typeof p.configuration.type !== "string" || typeof p.configuration.request !== "string"))
      throw new Failure(
        "invalid_arguments",
        "An inline configuration needs at least type, request and name, as in launch.json",
        'E.g. {"type": "node", "request": "launch", "name": "app", "program": "${workspaceFolder}/app.js"}.',
      );
    const named = p.name === undefined ? undefined : launchConfiguration(folder, p.name);
    if (p.name !== undefined && named === undefined)
      throw new Failure(
        "not_found",
        `No launch configuration "${p.name}" in this VS Code window`,
        "Check the names in .vscode/launch.json (Run and Debug view).",
      );
    for (const key of ["preLaunchTask", "postDebugTask"] as const) {
      const task = (named ?? p.configuration)?.[key];
      if (typeof task === "string" && !p.allowTasks.includes("*") && !p.allowTasks.includes(task))
        throw new Failure(
          "permission_denied",
          `The configuration runs the task "${task}" (${key}), which the user did not allow: a task runs workspace commands with VS Code's whole environment`,
          `Ask the user to start it in VS Code, or to restart the bridge with --vscode-allow-task "${task}".`,
        );
    }
    const started: vscode.DebugSession[] = [];
    const sub = vscode.debug.onDidStartDebugSession((s) => {
      if (s.parentSession === undefined) started.push(s);
    });
    this.tracker.bridgeStarting += 1;
    let ok: boolean;
    try {
      const config = withoutSecrets({ name: "claude-ide-bridge", ...(named ?? p.configuration) } as vscode.DebugConfiguration, p.passEnv);
      ok = await vscode.debug.startDebugging(folder, config);
    } finally {
      this.tracker.bridgeStarting -= 1;
      sub.dispose();
    }
    const root = started[0];
    const family = root === undefined ? undefined : this.tracker.familyOf(root);
    if (!ok || family === undefined) {
      throw new Failure(
        "debug_adapter_error",
        p.configuration === undefined
          ? `VS Code did not start the launch configuration "${p.name}" (not in .vscode/launch.json, or its debugger refused it)`
          : `VS Code did not start the inline ${String(p.configuration.type)} configuration (no debugger of that type, or it refused the configuration)`,
        "Check the configuration in VS Code's Run and Debug view; VS Code shows why it did not start there.",
      );
    }
    const from = family.dropped + family.output.length;
    await this.tracker.until(() => this.tracker.stateOf(family).kind !== "running", p.waitMs);
    return {
      ...this.answer(family, from),
      breakpoints: await trueVerdicts(this.tracker.membersOf(family), this.tracker.verdictsOf(family), { type: family.root.type }),
    };
  }

  sessions(): ResultOf<"extension/debugSessions"> {
    return { sessions: this.tracker.allFamilies().map((f) => this.tracker.wire(f)) };
  }

  async control(p: ParamsOf<"extension/debugControl">): Promise<ResultOf<"extension/debugControl">> {
    const family = this.find(p.sessionId);
    const state = this.tracker.stateOf(family);
    if (state.kind === "ended") return { session: this.tracker.wire(family) };
    const member = this.tracker.focus(family);
    if (member === undefined) return { session: this.tracker.wire(family) };
    const threadId = p.threadId ?? (state.kind === "stopped" ? state.threadId : undefined) ?? (await firstThread(member.session));
    const from = family.dropped + family.output.length;
    if (p.command !== "pause") this.tracker.markRunning(family);
    const waited = this.tracker.until(() => this.tracker.stateOf(family).kind !== "running", p.waitMs);
    try {
      await member.session.customRequest(p.command, { threadId: threadId ?? 0 });
    } catch (err) {
      if (this.tracker.stateOf(family).kind !== "ended")
        throw new Failure(
          "debug_adapter_error",
          `The debug adapter refused ${p.command}: ${message(err)}`,
          "getDebugState shows where the program is.",
        );
    }
    await waited;
    return this.answer(family, from);
  }

  async request(p: ParamsOf<"extension/debugRequest">): Promise<ResultOf<"extension/debugRequest">> {
    const member = this.tracker.focus(this.find(p.sessionId));
    if (member === undefined) throw new Failure("not_found", `${p.sessionId} has no live session`, "startDebugging starts one.");
    try {
      return { body: await member.session.customRequest(p.command, p.args) };
    } catch (err) {
      throw new Failure("tool_failed", `${p.command} failed: ${message(err)}`, "Check the expression or the frame (getDebugState).");
    }
  }

  async stop(p: ParamsOf<"extension/debugStop">): Promise<ResultOf<"extension/debugStop">> {
    const family = this.find(p.sessionId);
    if (this.tracker.stateOf(family).kind !== "ended") {
      await vscode.debug.stopDebugging(family.root);
      await this.tracker.until(() => family.ended, 5_000);
    }
    return { session: this.tracker.wire(family) };
  }

  async setBreakpoints(p: ParamsOf<"extension/setBreakpoints">): Promise<ResultOf<"extension/setBreakpoints">> {
    const live = this.tracker.allFamilies().filter((f) => this.tracker.stateOf(f).kind !== "ended");
    const before = new Map(live.map((f) => [f, this.tracker.answersOf(f)]));
    const old: vscode.Breakpoint[] = [];
    const added: vscode.Breakpoint[] = [];
    if (p.filePath !== undefined && p.breakpoints !== undefined) {
      const uri = vscode.Uri.file(p.filePath);
      old.push(...vscode.debug.breakpoints.filter((b) => b instanceof vscode.SourceBreakpoint && b.location.uri.fsPath === uri.fsPath));
      for (const b of p.breakpoints)
        added.push(
          new vscode.SourceBreakpoint(
            new vscode.Location(uri, new vscode.Position(Math.max(0, b.line - 1), 0)),
            true,
            b.condition,
            b.hitCondition,
            b.logMessage,
          ),
        );
    }
    if (p.functions !== undefined) {
      old.push(...vscode.debug.breakpoints.filter((b) => b instanceof vscode.FunctionBreakpoint));
      for (const f of p.functions) added.push(new vscode.FunctionBreakpoint(f.name, true, f.condition, f.hitCondition));
    }
    if (old.length > 0) vscode.debug.removeBreakpoints(old);
    if (added.length > 0) vscode.debug.addBreakpoints(added);
    // Each running session's adapter answers the change; a family whose adapter stays silent is
    // reported as it was (the bridge says the verdict is unknown for breakpoints it has none for).
    // VS Code sends function breakpoints only to adapters that take them: the others are not waited on.
    const answering = live.filter(
      (f) => p.breakpoints !== undefined || this.tracker.membersOf(f).some((m) => m.supportsFunctionBreakpoints),
    );
    await this.tracker.until(
      () => answering.every((f) => this.tracker.answersOf(f) > (before.get(f) ?? 0)),
      answering.length === 0 ? 0 : p.waitMs,
    );
    const key = p.filePath === undefined ? undefined : vscode.Uri.file(p.filePath).fsPath;
    const names = (p.functions ?? []).map((f) => f.name);
    const perFamily = await Promise.all(
      live.map(async (f) => [
        ...(await trueVerdicts(
          this.tracker.membersOf(f),
          this.tracker.verdictsOf(f).filter((x) => (x.filePath === undefined ? p.functions !== undefined : x.filePath === key)),
          { type: f.root.type },
        )),
        ...functionsNotSupported(this.tracker.membersOf(f), names, { type: f.root.type }),
      ]),
    );
    return { verdicts: perFamily.flat(), sessions: live.map((f) => f.id) };
  }

  output(p: ParamsOf<"extension/debugOutput">): ResultOf<"extension/debugOutput"> {
    const family = this.find(p.sessionId);
    const start = Math.max(p.since, family.dropped);
    const text = family.output.slice(start - family.dropped, start - family.dropped + p.maxChars);
    const next = start + text.length;
    return { text, next, dropped: p.since < family.dropped, more: next < family.dropped + family.output.length };
  }

  private answer(family: Family, from: number): ResultOf<"extension/debugControl"> {
    const start = Math.max(from, family.dropped);
    const printed = family.output.slice(start - family.dropped);
    return {
      session: this.tracker.wire(family),
      ...(printed === "" ? {} : { output: printed.length > OUTPUT_TAIL_CHARS ? `…${printed.slice(-OUTPUT_TAIL_CHARS)}` : printed }),
    };
  }

  private find(id: string): Family {
    const family = this.tracker.family(id);
    if (family === undefined)
      throw new Failure("not_found", `No VS Code debug session ${id}`, "getDebugState without a sessionId lists the sessions VS Code has.");
    return family;
  }

  dispose(): void {
    this.tracker.dispose();
  }
}

function launchConfiguration(folder: vscode.WorkspaceFolder | undefined, name: string): Record<string, unknown> | undefined {
  const all = vscode.workspace.getConfiguration("launch", folder).get<Record<string, unknown>[]>("configurations") ?? [];
  return all.find((c) => c.name === name);
}

/** js-debug's programs inherit VS Code's environment: secret-looking variables are removed (null), as in the bridge's terminals. */
function withoutSecrets(config: vscode.DebugConfiguration, passEnv: readonly string[]): vscode.DebugConfiguration {
  if (!JS_DEBUG_TYPES.has(config.type)) return config;
  const env: Record<string, string | null> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value === undefined || passEnv.includes(name)) continue;
    if (looksSecretName(name) || looksSecretValue(value)) env[name] = null;
  }
  return { ...config, env: { ...env, ...(config.env as Record<string, string> | undefined) } };
}

async function firstThread(session: vscode.DebugSession): Promise<number | undefined> {
  const r = (await Promise.resolve(session.customRequest("threads")).catch(() => undefined)) as { threads?: { id: number }[] } | undefined;
  return r?.threads?.[0]?.id;
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
