// What startDebugging runs, checked as runCommand's programs are: the program, the working directory
// and every argument that reads as a path stay inside the workspace (the jail, and the argument path
// rule of src/security/commands/argument-paths.ts); the environment is the bridge's minus the user's
// secrets (the engine's), and extra variables may not load code (LD_PRELOAD and the like). A
// .vscode/launch.json configuration is read into the same shape and checked the same way.
import { ToolError } from "../../errors.ts";
import type { ToolContext } from "../../capabilities/context.ts";
import { isDebugLanguage, type DebugLanguage, type LaunchRequestInput } from "../../dap/debug-adapters.ts";
import { parseJsonc } from "../../lsp/project-style.ts";
import { argumentOutside } from "../../security/commands/argument-paths.ts";

export interface TargetInput {
  program?: string | undefined;
  args?: string[] | undefined;
  test?: string | undefined;
  language?: DebugLanguage | undefined;
  configName?: string | undefined;
  cwd?: string | undefined;
  env?: Record<string, string> | undefined;
  stopOnEntry?: boolean | undefined;
}

export interface LaunchTarget {
  language: DebugLanguage;
  launch: LaunchRequestInput;
  /** Workspace-relative, for answers. */
  shown: string;
}

/** Variables that make a program load other code than its own. */
const LOADER_VARIABLES = /^(LD_|DYLD_)|^(PYTHONSTARTUP|PYTHONHOME|NODE_OPTIONS|BASH_ENV|ENV)$/;
const C_SOURCES = /\.(c|cc|cpp|cxx|h|hpp)$/;

export async function launchTarget(input: TargetInput, ctx: ToolContext): Promise<LaunchTarget> {
  const target = input.configName === undefined ? input : { ...(await fromLaunchJson(input.configName, ctx)), ...definedOnly(input) };
  if ((target.program === undefined) === (target.test === undefined)) {
    throw new ToolError("invalid_arguments", "Give exactly one of program or test (or configName)", {
      suggestion: 'E.g. {"program": "app.py"}, {"program": "build/app", "args": ["x"]}, or {"test": "tests/test_app.py::test_add"}.',
    });
  }
  const cwd = await ctx.fs.resolve(target.cwd ?? ".");
  if (!(await ctx.fs.stat(cwd)).isDirectory) {
    throw new ToolError("not_a_directory", `${target.cwd} is not a directory`, { suggestion: "Give a workspace directory as cwd." });
  }
  const args = target.args ?? [];
  const place = { cwd, folders: ctx.fs.folders };
  const outside = argumentOutside([...args, ...(target.test === undefined ? [] : [target.test])], place);
  if (outside !== undefined) {
    throw new ToolError(
      "command_refused",
      `Refused: the argument ${JSON.stringify(outside.arg)} names ${outside.path}, outside the workspace`,
      {
        suggestion: "Programs under the debugger work on files of the workspace only (the same rule as runCommand).",
      },
    );
  }
  const env = checkedEnv(target.env ?? {}, place);
  const stopOnEntry = target.stopOnEntry ?? false;
  if (target.test !== undefined) {
    if (target.language !== undefined && target.language !== "python") {
      throw new ToolError("not_supported", `Debugging a test is supported for Python (pytest) only, not ${target.language}`, {
        suggestion: "Build the test binary and give it as program.",
      });
    }
    return {
      language: "python",
      shown: `pytest ${target.test}`,
      launch: { module: "pytest", args: [target.test, ...args], cwd, env, stopOnEntry },
    };
  }
  const program = await ctx.fs.resolve(target.program ?? "");
  const kind = await ctx.fs.stat(program);
  const language = target.language ?? languageOfProgram(program, kind.isDirectory);
  // Go alone takes a package directory (delve builds it); every other program is one file.
  if (!kind.isFile && !(language === "go" && kind.isDirectory)) {
    throw new ToolError("not_a_file", `${target.program} is not a file`, {
      suggestion: "Give the script, the Go source or package directory, or the compiled executable to debug.",
    });
  }
  if (language === "c" && C_SOURCES.test(program)) {
    throw new ToolError("invalid_arguments", `${target.program} is a source file; the debugger runs the compiled program`, {
      suggestion: "Build it with debug information (e.g. gcc -g -O0 -o app app.c through runCommand) and give the executable.",
    });
  }
  const buildFromSource = language === "go" && (kind.isDirectory || program.endsWith(".go"));
  return {
    language,
    // The workspace root itself (a Go package) reads as ".", not as nothing.
    shown: ctx.fs.relative(program) || ".",
    launch: { program, args, cwd, env, stopOnEntry, ...(buildFromSource ? { buildFromSource } : {}) },
  };
}

/** Python scripts, JavaScript and TypeScript, and Go sources by their extension; every other file is taken for a compiled (C/C++) program. */
function languageOfProgram(program: string, isDirectory: boolean): DebugLanguage {
  if (program.endsWith(".py")) return "python";
  if (/\.[cm]?[jt]s$/.test(program)) return "node";
  if (program.endsWith(".go") || isDirectory) return "go";
  return "c";
}

function checkedEnv(env: Record<string, string>, place: { cwd: string; folders: readonly string[] }): Record<string, string> {
  for (const [name, value] of Object.entries(env)) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name) || LOADER_VARIABLES.test(name)) {
      throw new ToolError("command_refused", `Refused the environment variable ${JSON.stringify(name)}`, {
        suggestion: "Variables that load other code (LD_PRELOAD, PYTHONSTARTUP, NODE_OPTIONS...) are not allowed.",
      });
    }
    const outside = argumentOutside([value], place);
    if (outside !== undefined) {
      throw new ToolError("command_refused", `Refused ${name}: it names ${outside.path}, outside the workspace`, {
        suggestion: "Programs under the debugger work on files of the workspace only.",
      });
    }
  }
  return env;
}

/** A configuration of .vscode/launch.json by name (the user's file: the bridge's tools cannot write .vscode/). */
export async function launchConfiguration(name: string, ctx: ToolContext): Promise<Record<string, unknown>> {
  const text = await ctx.fs.readText(".vscode/launch.json", { maxBytes: 1024 * 1024 }).catch((err: unknown) => {
    throw new ToolError("file_not_found", `No readable .vscode/launch.json (${err instanceof Error ? err.message : String(err)})`, {
      suggestion: "Give program (or test) instead of configName.",
    });
  });
  const configs = parseJsonc(text)?.configurations;
  const list = Array.isArray(configs) ? configs.filter((c): c is Record<string, unknown> => typeof c === "object" && c !== null) : [];
  const config = list.find((c) => c.name === name);
  if (config === undefined) {
    throw new ToolError("invalid_arguments", `.vscode/launch.json has no configuration named ${JSON.stringify(name)}`, {
      suggestion: `Its configurations: ${list.map((c) => JSON.stringify(c.name)).join(", ") || "none"}.`,
    });
  }
  return config;
}

async function fromLaunchJson(name: string, ctx: ToolContext): Promise<TargetInput> {
  const config = await launchConfiguration(name, ctx);
  if (config.request !== "launch") {
    throw new ToolError(
      "not_supported",
      `Configuration ${JSON.stringify(name)} is a ${String(config.request)} request; only launch configurations run headless`,
      {
        suggestion: "Use a launch configuration, or give program directly.",
      },
    );
  }
  const language = languageOfType(String(config.type));
  if (language === "go" && config.mode !== undefined && !["auto", "debug", "exec"].includes(String(config.mode))) {
    throw new ToolError(
      "not_supported",
      `Configuration ${JSON.stringify(name)} runs delve in ${String(config.mode)} mode; headless Go runs a program only`,
      {
        suggestion: 'Use a configuration whose mode is "debug" or "exec", or give program directly.',
      },
    );
  }
  const sub = (value: unknown) => substitute(value, { root: ctx.fs.root, name });
  const out: TargetInput = { language };
  if (typeof config.program === "string") out.program = sub(config.program);
  if (config.module === "pytest") out.test = Array.isArray(config.args) ? String(config.args[0] ?? ".") : ".";
  else if (typeof config.module === "string") {
    throw new ToolError(
      "not_supported",
      `Configuration ${JSON.stringify(name)} runs the module ${config.module}; only pytest runs as a module`,
      {
        suggestion: "Give the module's script as program instead.",
      },
    );
  }
  const args = Array.isArray(config.args) ? config.args.map(sub) : undefined;
  if (args !== undefined) out.args = config.module === "pytest" ? args.slice(1) : args;
  if (typeof config.cwd === "string") out.cwd = sub(config.cwd);
  if (typeof config.env === "object" && config.env !== null)
    out.env = Object.fromEntries(Object.entries(config.env).map(([k, v]) => [k, sub(v)]));
  if (typeof config.stopOnEntry === "boolean") out.stopOnEntry = config.stopOnEntry;
  return out;
}

export function languageOfType(type: string): DebugLanguage {
  const byType: Record<string, DebugLanguage> = {
    python: "python",
    debugpy: "python",
    lldb: "c",
    "lldb-dap": "c",
    cppdbg: "c",
    "lldb-vscode": "c",
    go: "go",
    node: "node",
    "pwa-node": "node",
  };
  const language = byType[type];
  if (language === undefined || !isDebugLanguage(language)) {
    throw new ToolError("not_supported", `launch.json type ${JSON.stringify(type)} has no headless debug adapter here`, {
      suggestion: "Headless debugging covers Python (debugpy), C/C++ (lldb), Go (delve) and Node; give program directly.",
    });
  }
  return language;
}

export function substitute(value: unknown, config: { root: string; name: string }): string {
  const { root, name } = config;
  return String(value).replace(/\$\{([^}]+)\}/g, (_, variable: string) => {
    if (variable === "workspaceFolder" || variable === "workspaceRoot") return root;
    throw new ToolError(
      "not_supported",
      `Configuration ${JSON.stringify(name)} uses \${${variable}}, which has no value without an editor`,
      {
        suggestion: "Give program and args directly.",
      },
    );
  });
}

function definedOnly(input: TargetInput): TargetInput {
  return Object.fromEntries(Object.entries(input).filter(([k, v]) => v !== undefined && k !== "configName"));
}
