// Attaching to a running process by its id, and the rule that keeps the model off the user's other
// processes (the reasons are in attach-target.ts's header). A process is attached to only when all hold:
// - the bridge can read it (Linux /proc) and it is not the bridge itself;
// - it belongs to the bridge's user (real and effective uid);
// - its executable or its working directory lies inside a workspace folder;
// - the user's consent: it descends from a process the bridge started (a program one of the caller's
//   debug sessions launched, not one it attached to; or a terminal the bridge created in VS Code), or the user's
//   .vscode/launch.json attach configuration names it ("processId": N) and that file was written after
//   the process started;
// - for Go and C/C++, ptrace may trace it (Yama's ptrace_scope); for Node, it is a node executable
//   (SIGUSR1 opens a node's inspector and ends most other programs). Python is refused: attaching
//   to a running interpreter means injecting code through gdb.
import { ToolError } from "../../errors.ts";
import type { ToolContext } from "../../capabilities/context.ts";
import type { DebugLanguage } from "../../dap/debug-adapters.ts";
import { inWorkspace, whereItRuns } from "../../dap/process-place.ts";
import { basename, isInside } from "../../lib/paths/posix-path.ts";
import type { ProcessFacts } from "../../ports/processes.ts";
import { DEBUG_SESSIONS } from "./debug-sessions.ts";

export interface ProcessTarget {
  language: DebugLanguage;
  pid: number;
  /** Absolute path of its executable (lldb reads its symbols there). */
  executable: string | undefined;
  /** Absolute, jailed: the adapter's working directory and where source maps are looked for. */
  cwd: string;
  /** For answers. */
  shown: string;
}

/** The user wrote the pid: the name of the launch.json configuration and when the file was last written. */
export interface LaunchJsonConsent {
  configName: string;
  writtenMs: number;
}

const NODE_EXECUTABLE = /^(node|nodejs)(\d+)?$/;
const PYTHON_EXECUTABLE = /^python(\d+(\.\d+)?)?$/;
/** Parents walked up from the process before giving up (a deeper tree is not the bridge's). */
const MAX_ANCESTORS = 64;
/** /proc gives a process's start to the second. */
const START_TIME_SLACK_MS = 1000;
const PORT_ALTERNATIVE =
  "or start the program with its debugger on a loopback port (node --inspect=127.0.0.1:PORT, python -m debugpy --listen 127.0.0.1:PORT, dlv debug --headless --listen=127.0.0.1:PORT) and attach through a .vscode/launch.json attach configuration naming the port";

export async function processTarget(
  pid: number,
  opts: { language?: DebugLanguage | undefined; consent?: LaunchJsonConsent | undefined },
  ctx: ToolContext,
): Promise<ProcessTarget> {
  const tracing = await ctx.debug.tracing();
  if (tracing === undefined) {
    throw refused(
      "not_supported",
      "Attaching by process id needs Linux's /proc, which this system does not have",
      `Start the program with startDebugging, ${PORT_ALTERNATIVE}.`,
    );
  }
  if (pid === tracing.bridgePid) refuse(`Process ${pid} is the bridge itself`, "Give the id of the program to debug.");
  const facts = await ctx.debug.processFacts(pid);
  if (facts === undefined) {
    throw refused(
      "invalid_arguments",
      `No process ${pid} is running (or the bridge may not read it)`,
      "Give the id of a running program (listed by ps, or printed by the program).",
    );
  }
  const bridge = await ctx.debug.processFacts(tracing.bridgePid);
  if (bridge === undefined || facts.uid !== bridge.uid || facts.effectiveUid !== bridge.effectiveUid) {
    refuse(`Process ${pid} does not belong to the bridge's user`, "Attach reaches only the bridge's user's own programs.");
  }
  if (!inWorkspace(facts, ctx.fs.folders)) {
    refuse(
      `Process ${pid} runs in ${whereItRuns(facts)}, outside the workspace`,
      "Attach reaches only programs whose executable or working directory is in the workspace.",
    );
  }
  await checkConsent(facts, opts.consent, ctx);
  const language = await languageOf(facts, opts.language, ctx);
  if (language === "go" || language === "c") checkPtrace(pid, tracing.ptraceScope, bridge);
  const cwd =
    facts.cwd !== undefined && ctx.fs.folders.some((f) => isInside(facts.cwd ?? "", f)) ? await ctx.fs.resolve(facts.cwd) : ctx.fs.root;
  return { language, pid, executable: facts.executable, cwd, shown: `process ${pid} (${nameOf(facts)})` };
}

async function checkConsent(facts: ProcessFacts, consent: LaunchJsonConsent | undefined, ctx: ToolContext): Promise<void> {
  if (consent !== undefined) {
    // A pid written before the process started names whatever process got that number later.
    if (facts.startedAtMs === undefined || consent.writtenMs < facts.startedAtMs - START_TIME_SLACK_MS) {
      refuse(
        `Configuration ${JSON.stringify(consent.configName)} names process ${facts.pid}, but .vscode/launch.json was last written before that process started`,
        "Write the running program's id into the configuration (the user's file), then start again.",
      );
    }
    return;
  }
  const roots = await bridgeStarted(ctx);
  let parent = facts.parentPid;
  for (let step = 0; step < MAX_ANCESTORS && parent > 1; step += 1) {
    if (roots.has(parent)) return;
    parent = (await ctx.debug.processFacts(parent))?.parentPid ?? 0;
  }
  refuse(
    `Process ${facts.pid} was not started by the bridge, and no .vscode/launch.json attach configuration names it`,
    `Attach by id reaches the children of programs the bridge started (a program under startDebugging, a command in a terminal the bridge created) or a "processId" the user wrote in a launch.json attach configuration; ${PORT_ALTERNATIVE}.`,
  );
}

/** The processes the bridge started for the caller: its launched debug sessions' adapters and programs, its VS Code terminals. */
async function bridgeStarted(ctx: ToolContext): Promise<Set<number>> {
  const pids = new Set<number>();
  for (const held of ctx.state(DEBUG_SESSIONS).live(ctx.session)) {
    // An attached program was started by someone else, with their environment: its children are not the bridge's.
    if (held.session.attached) continue;
    for (const pid of [held.session.pid, held.session.programPid]) if (pid !== undefined) pids.add(pid);
  }
  if (ctx.extension.connected) {
    const listed = await ctx.extension.request("extension/listTerminals", {}, { signal: ctx.signal }).catch(() => ({ terminals: [] }));
    for (const t of listed.terminals) if (t.createdByBridge && t.processId !== undefined) pids.add(t.processId);
  }
  return pids;
}

async function languageOf(facts: ProcessFacts, given: DebugLanguage | undefined, ctx: ToolContext): Promise<DebugLanguage> {
  const name = nameOf(facts);
  const language = given ?? (NODE_EXECUTABLE.test(name) ? "node" : PYTHON_EXECUTABLE.test(name) ? "python" : undefined);
  if (language === "python") {
    throw refused(
      "not_supported",
      `Attaching to a running Python process (${facts.pid}) needs code injected into it through gdb, which the bridge does not do`,
      "Start it with python -m debugpy --listen 127.0.0.1:PORT and attach through a .vscode/launch.json attach configuration naming the port, or run it with startDebugging.",
    );
  }
  if (language === "node" && !NODE_EXECUTABLE.test(name)) {
    throw refused(
      "invalid_arguments",
      `Process ${facts.pid} is not a node (it runs ${name}): SIGUSR1 would end it, not open its inspector`,
      "Give the id of the node process, or the right language.",
    );
  }
  if (language !== undefined) return language;
  return (await ctx.debug.isGoProgram(`/proc/${facts.pid}/exe`)) ? "go" : "c";
}

function checkPtrace(pid: number, scope: number | undefined, bridge: ProcessFacts): void {
  // Yama: 1 lets a debugger trace only its own descendants (delve and lldb are not the program's
  // parents), 2 only with CAP_SYS_PTRACE (root here), 3 never.
  const allowed = scope === undefined || scope === 0 || (scope < 3 && bridge.effectiveUid === 0);
  if (allowed) return;
  throw refused(
    "not_supported",
    `The kernel lets no debugger attach to process ${pid}: kernel.yama.ptrace_scope is ${scope}`,
    scope === 3
      ? `Start the program with startDebugging instead (ptrace_scope 3 lasts until reboot), ${PORT_ALTERNATIVE}.`
      : `Start the program with startDebugging, or allow attaching (sudo sysctl kernel.yama.ptrace_scope=0); ${PORT_ALTERNATIVE}.`,
  );
}

function nameOf(facts: ProcessFacts): string {
  return basename(facts.executable ?? facts.argv[0] ?? String(facts.pid));
}

function refused(code: "command_refused" | "invalid_arguments" | "not_supported", message: string, suggestion: string): ToolError {
  return new ToolError(code, message, { suggestion });
}

function refuse(message: string, suggestion: string): never {
  throw refused("command_refused", message, suggestion);
}
