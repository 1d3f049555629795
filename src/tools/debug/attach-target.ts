// What startDebugging attaches to, and the rule that keeps the model off the user's other processes.
// A debugger that attaches can read everything a process holds (its environment's secrets, its
// memory) and make it run code, and the model, like the workspace it reads, is not trusted: so an
// attach needs the user's own act, not the model's word.
// - A loopback port named by a .vscode/launch.json attach configuration: debugpy's --listen, node's
//   --inspect, a headless delve (dlv debug --headless --listen), a C/C++ program under a remote stub
//   (lldb-server gdbserver 127.0.0.1:PORT -- ./app; lldb's adapter connects with gdb-remote, a command
//   the bridge writes itself). Opening a debug port is the user's consent; the model cannot write
//   .vscode/ (the jail refuses it without --allow-vscode-dir-writes). As the launch.json may have come
//   with the repository, the process listening there must run in the workspace, checked before
//   attaching (Linux /proc: the listener's working directory or executable). Any host but loopback is
//   refused.
// - A process id (startDebugging's processId, or "processId": N in a launch.json attach
//   configuration): the full rule is in attach-pid.ts's header. In short: the bridge's user's, in
//   the workspace, and either a descendant of a process the bridge started (whose environment it
//   already scrubbed) or named by the user in launch.json after the process started (a pid in a file
//   older than the process is a stale number, or one that came with the repository). A launch.json
//   git tracks is the repository's, not the user's own, and a checkout, pull or stash pop (which the
//   model may run) writes it anew: its pid is refused. Go and C/C++ are
//   traced by delve and lldb (ptrace, subject to Yama's ptrace_scope), Node opens its inspector on
//   SIGUSR1; Python is refused (attaching to a running interpreter injects code through gdb).
// Stopping an attached session detaches: the program goes on running; nothing it did not start is ended.
import { ToolError } from "../../errors.ts";
import type { ToolContext } from "../../capabilities/context.ts";
import { DEBUG_ADAPTERS, type DebugLanguage } from "../../dap/debug-adapters.ts";
import { languageOfType, launchConfiguration, substitute } from "./launch-target.ts";
import { processTarget, type ProcessTarget } from "./attach-pid.ts";
import { openRepository } from "../../services/git/repository.ts";

export interface AttachTarget {
  language: DebugLanguage;
  port: number;
  /** Absolute, jailed: where a Node program's source maps are looked for. */
  cwd: string;
  /** For answers. */
  shown: string;
  /** Absolute, jailed: a C/C++ program's executable, for its symbols. */
  program?: string;
}

const LAUNCH_JSON = ".vscode/launch.json";
const LOOPBACK = new Set(["127.0.0.1", "localhost", "::1", "[::1]"]);
/** VS Code's default port for a Node attach configuration without one. */
const NODE_DEFAULT_PORT = 9229;

/** The attach target of the named configuration; undefined when there is none or it is a launch configuration. */
export async function attachTarget(configName: string | undefined, ctx: ToolContext): Promise<AttachTarget | ProcessTarget | undefined> {
  if (configName === undefined) return undefined;
  const config = await launchConfiguration(configName, ctx);
  if (config.request !== "attach") return undefined;
  const name = JSON.stringify(configName);
  const language = languageOfType(String(config.type));
  if (config.processId !== undefined) {
    const pid = Number(config.processId);
    if (!Number.isInteger(pid) || pid < 1) {
      throw new ToolError(
        "not_supported",
        `Configuration ${name} picks its process with ${JSON.stringify(config.processId)}, which needs an editor`,
        {
          suggestion: `Write the process id itself as "processId" in ${name}, or give startDebugging processId.`,
        },
      );
    }
    if (await trackedByGit(LAUNCH_JSON, ctx)) {
      throw new ToolError("command_refused", `Configuration ${name} names process ${pid} in a .vscode/launch.json git tracks`, {
        suggestion:
          "A tracked launch.json is the repository's (a checkout or pull rewrites it), not the user's consent: write the pid in an untracked launch.json, or give startDebugging processId for a program the bridge started.",
      });
    }
    const written = await ctx.fs.stat(LAUNCH_JSON);
    return processTarget(pid, { language, consent: { configName, writtenMs: written.mtimeMs } }, ctx);
  }
  const spec = DEBUG_ADAPTERS[language];
  if (spec.attachArguments === undefined && spec.remoteStub === undefined) {
    throw new ToolError("not_supported", `Attaching to a port is not supported for ${language} headless`, {
      suggestion: "Attach by process id (startDebugging processId) or start the program with startDebugging.",
    });
  }
  const connect = typeof config.connect === "object" && config.connect !== null ? (config.connect as Record<string, unknown>) : {};
  const host = String(connect.host ?? config.host ?? config.address ?? "127.0.0.1");
  const port = Number(connect.port ?? config.port ?? config["gdb-remote-port"] ?? (language === "node" ? NODE_DEFAULT_PORT : Number.NaN));
  if (!LOOPBACK.has(host)) {
    throw new ToolError("command_refused", `Configuration ${name} attaches to ${host}, which is not this machine's loopback`, {
      suggestion: "Only a debugger listening on 127.0.0.1 is attached to.",
    });
  }
  if (!Number.isInteger(port) || port < 1 || port > 65_535) {
    throw new ToolError("invalid_arguments", `Configuration ${name} names no port to attach to`, {
      suggestion: 'Give it "port" (Node, Go, C/C++ under lldb-server gdbserver) or "connect": {"port": N} (Python).',
    });
  }
  const sub = (value: string) => substitute(value, { root: ctx.fs.root, name: configName });
  const cwd = await ctx.fs.resolve(typeof config.cwd === "string" ? sub(config.cwd) : ".");
  // lldb reads a remote program's symbols from its executable, which must be the workspace's.
  const program =
    spec.remoteStub !== undefined && typeof config.program === "string" ? await ctx.fs.resolve(sub(config.program)) : undefined;
  return { language, port, cwd, shown: `${configName} (attached to 127.0.0.1:${port})`, ...(program === undefined ? {} : { program }) };
}

/** Whether git tracks `path` (workspace-relative); false where there is no repository or no git. */
async function trackedByGit(path: string, ctx: ToolContext): Promise<boolean> {
  let repo: Awaited<ReturnType<typeof openRepository>>;
  try {
    repo = await openRepository(ctx, "read");
  } catch {
    return false;
  }
  return (await repo.output(["ls-files", "-z", "--", path])) !== "";
}
