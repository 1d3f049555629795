// What startDebugging attaches to, and the rule that keeps the model off the user's other processes:
// only a debugger listening on a loopback port that a .vscode/launch.json attach configuration names
// (debugpy's `--listen`, node's `--inspect`). The model cannot write .vscode/ (the jail refuses it
// without --allow-vscode-dir-writes), so the port is the user's choice. Attaching by process id is
// refused: a pid reaches every process of the user's (a shell, an editor, a browser), and delve's and
// lldb's attach by pid needs ptrace over them. Any host but loopback is refused too.
import { ToolError } from "../../errors.ts";
import type { ToolContext } from "../../capabilities/context.ts";
import { DEBUG_ADAPTERS, type DebugLanguage } from "../../dap/debug-adapters.ts";
import { languageOfType, launchConfiguration, substitute } from "./launch-target.ts";

export interface AttachTarget {
  language: DebugLanguage;
  port: number;
  /** Absolute, jailed: where a Node program's source maps are looked for. */
  cwd: string;
  /** For answers. */
  shown: string;
}

const LOOPBACK = new Set(["127.0.0.1", "localhost", "::1", "[::1]"]);
/** VS Code's default port for a Node attach configuration without one. */
const NODE_DEFAULT_PORT = 9229;

/** The attach target of the named configuration; undefined when there is none or it is a launch configuration. */
export async function attachTarget(configName: string | undefined, ctx: ToolContext): Promise<AttachTarget | undefined> {
  if (configName === undefined) return undefined;
  const config = await launchConfiguration(configName, ctx);
  if (config.request !== "attach") return undefined;
  const name = JSON.stringify(configName);
  const language = languageOfType(String(config.type));
  if (config.processId !== undefined) {
    throw new ToolError("command_refused", `Configuration ${name} attaches to a process id, which the bridge refuses`, {
      suggestion: `Only a debugger listening on a loopback port is attached to: start the program with node --inspect=127.0.0.1:PORT or python -m debugpy --listen 127.0.0.1:PORT, and name the port in ${name}.`,
    });
  }
  if (DEBUG_ADAPTERS[language].attachArguments === undefined) {
    throw new ToolError("not_supported", `Attaching is not supported for ${language} headless`, {
      suggestion: "Attach works for Python (debugpy --listen) and Node (--inspect); start the program with startDebugging instead.",
    });
  }
  const connect = typeof config.connect === "object" && config.connect !== null ? (config.connect as Record<string, unknown>) : {};
  const host = String(connect.host ?? config.host ?? config.address ?? "127.0.0.1");
  const port = Number(connect.port ?? config.port ?? (language === "node" ? NODE_DEFAULT_PORT : Number.NaN));
  if (!LOOPBACK.has(host)) {
    throw new ToolError("command_refused", `Configuration ${name} attaches to ${host}, which is not this machine's loopback`, {
      suggestion: "Only a debugger listening on 127.0.0.1 is attached to.",
    });
  }
  if (!Number.isInteger(port) || port < 1 || port > 65_535) {
    throw new ToolError("invalid_arguments", `Configuration ${name} names no port to attach to`, {
      suggestion: 'Give it "port" (Node) or "connect": {"port": N} (Python).',
    });
  }
  const cwd = await ctx.fs.resolve(typeof config.cwd === "string" ? substitute(config.cwd, { root: ctx.fs.root, name: configName }) : ".");
  return { language, port, cwd, shown: `${configName} (attached to 127.0.0.1:${port})` };
}
