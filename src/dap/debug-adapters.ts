// The debug adapters the bridge knows, one per language, and how each is found on this machine:
// like the language servers (src/lsp/server-specs.ts), by looking for the program on PATH, plus the
// places the distribution's package puts it. Each entry also says how the adapter wants a program
// launched, since the launch request's arguments are adapter-specific (DAP leaves them open).

export type DebugLanguage = "python" | "c" | "go" | "node";

export interface LaunchRequestInput {
  /** Absolute path of the program (a script for Python, an executable for C/C++). */
  program?: string;
  /** Python only: a module to run instead of a program (`pytest` for a test). */
  module?: string;
  /** Go only: program is a source file or package directory for the adapter to build, not an executable. */
  buildFromSource?: boolean;
  args: readonly string[];
  /** Absolute, jailed working directory. */
  cwd: string;
  /** Extra variables for the program, on top of the scrubbed environment the adapter already runs in. */
  env: Readonly<Record<string, string>>;
  stopOnEntry: boolean;
}

export interface AdapterSpec {
  readonly language: DebugLanguage;
  /** What doctor and getToolCapabilities call it. */
  readonly label: string;
  /** How to install it when missing. */
  readonly install: string;
  /** Programs tried in order: the first that runs the adapter wins. */
  readonly candidates: readonly { command: string; args: readonly string[]; check?: readonly string[] }[];
  /** DAP's initialize adapterID. */
  readonly adapterId: string;
  /** The launch request's arguments for this adapter. */
  launchArguments(input: LaunchRequestInput, found: { command: string; tmp: string }): Record<string, unknown>;
  /** Exception breakpoint filters that stop on an uncaught exception (set by default). */
  readonly uncaughtFilters: readonly string[];
  /** File extensions of sources it debugs, for picking the language from a program's name. */
  readonly extensions: readonly string[];
  /**
   * An adapter that speaks DAP on a TCP port it prints (the port is `pattern`'s first group) instead
   * of its stdio; `programOutput` when the program it runs writes to the adapter's own stdout and stderr.
   */
  readonly listens?: { pattern: RegExp; programOutput: boolean };
  /** What the adapter does without saying so in its initialize answer. */
  readonly unadvertised?: { supportsHitConditionalBreakpoints?: boolean };
  /** The attach request's arguments for a program whose debugger listens on a loopback port; absent: no attach. */
  readonly attachArguments?: (target: {
    port: number;
    cwd: string;
    roots: readonly string[];
    closeInspector: boolean;
  }) => Record<string, unknown>;
  /**
   * The attach request's arguments for a running process by its id (the adapter traces it with
   * ptrace); absent: attaching by process id is not done for this language.
   */
  readonly processAttach?: (target: { pid: number; executable: string | undefined }) => Record<string, unknown>;
  /**
   * The attach request's arguments for a program waiting under a remote debugging stub on a loopback
   * port (lldb-server gdbserver, gdbserver): the adapter is started by the bridge and connects to it.
   */
  readonly remoteStub?: (target: { port: number; program: string | undefined }) => Record<string, unknown>;
  /** An adapter that runs inside the bridge (src/dap/node-inspector/) instead of as a process of its own. */
  readonly inProcess?: "node-inspector";
  /** Longest start-up (launch included) when longer than the engine's default: delve builds the program first. */
  readonly startTimeoutMs?: number;
}

const python: AdapterSpec = {
  language: "python",
  label: "debugpy (python3 -m debugpy.adapter)",
  install: "apt-get install python3-debugpy (Debian), or pip install debugpy for the project's Python",
  // Debian's package lands in the system Python, which a version manager's python3 on PATH may not see.
  candidates: [
    { command: "python3", args: ["-m", "debugpy.adapter"], check: ["-c", "import debugpy.adapter"] },
    { command: "/usr/bin/python3", args: ["-m", "debugpy.adapter"], check: ["-c", "import debugpy.adapter"] },
  ],
  adapterId: "debugpy",
  launchArguments(input, found) {
    return {
      ...(input.module === undefined ? { program: input.program } : { module: input.module }),
      args: [...input.args],
      cwd: input.cwd,
      env: { ...input.env },
      // The program runs with the Python that has debugpy, so its launcher can import it.
      python: [found.command],
      console: "internalConsole",
      stopOnEntry: input.stopOnEntry,
      justMyCode: true,
      redirectOutput: true,
    };
  },
  uncaughtFilters: ["uncaught"],
  extensions: [".py"],
  // `python -m debugpy --listen 127.0.0.1:PORT app.py` serves DAP on that port itself.
  attachArguments: () => ({ justMyCode: true }),
};

const c: AdapterSpec = {
  language: "c",
  label: "lldb-dap (lldb-vscode in older LLVM)",
  install: "apt-get install lldb (Debian ships lldb-vscode-NN; newer LLVM names it lldb-dap)",
  candidates: ["lldb-dap", "lldb-vscode", ...[19, 18, 17, 16, 15, 14].flatMap((v) => [`lldb-dap-${v}`, `lldb-vscode-${v}`])].map(
    (command) => ({ command, args: [] }),
  ),
  adapterId: "lldb",
  launchArguments(input) {
    return {
      program: input.program,
      args: [...input.args],
      cwd: input.cwd,
      // lldb-vscode takes the environment as "NAME=value" strings.
      env: Object.entries(input.env).map(([k, v]) => `${k}=${v}`),
      stopOnEntry: input.stopOnEntry,
    };
  },
  // A C program's crash is a signal, which lldb stops on without a filter; C++ throws are opt-in.
  uncaughtFilters: [],
  extensions: [".c", ".cc", ".cpp", ".cxx", ".h", ".hpp", ""],
  // lldb reads the symbols from the executable it is given; without it, from the process's own image.
  processAttach: (target) => ({ pid: target.pid, ...(target.executable === undefined ? {} : { program: target.executable }) }),
  // The command is the bridge's own, never the configuration's: only the port comes from the user.
  remoteStub: (target) => ({
    ...(target.program === undefined ? {} : { program: target.program }),
    attachCommands: [`gdb-remote 127.0.0.1:${target.port}`],
  }),
};

// Delve's DAP server listens on TCP only (no stdio mode); 1.20 runs the program on its own stdio
// rather than sending output events. A Go source file or package directory is built by delve itself
// ("debug" mode, without optimisations); anything else is a built executable ("exec" mode).
const go: AdapterSpec = {
  language: "go",
  label: "delve (dlv dap)",
  install: "apt-get install delve (Debian), or go install github.com/go-delve/delve/cmd/dlv@latest",
  candidates: [{ command: "dlv", args: ["dap", "--listen=127.0.0.1:0"], check: ["version"] }],
  adapterId: "go",
  launchArguments(input, found) {
    const program = input.program ?? "";
    const build = input.buildFromSource === true;
    return {
      mode: build ? "debug" : "exec",
      program,
      args: [...input.args],
      cwd: input.cwd,
      env: { ...input.env },
      stopOnEntry: input.stopOnEntry,
      hideSystemGoroutines: true,
      // The build lands in the temporary directory, not in the user's workspace.
      ...(build ? { output: `${found.tmp}/claude-ide-bridge-debug-${crypto.randomUUID()}` } : {}),
    };
  },
  // Delve stops on an unrecovered panic and a fatal runtime error without being asked.
  uncaughtFilters: [],
  extensions: [".go"],
  // Delve 1.20 stops on a breakpoint's Nth hit ("3", ">= 3", "% 2") but leaves the capability out of initialize.
  unadvertised: { supportsHitConditionalBreakpoints: true },
  // A first build without optimisations recompiles the standard library: a minute on a loaded machine.
  startTimeoutMs: 180_000,
  listens: { pattern: /DAP server listening at: 127\.0\.0\.1:(\d+)/, programOutput: true },
  processAttach: (target) => ({ mode: "local", processId: target.pid }),
  // A headless delve the user started (dlv debug --headless --listen=127.0.0.1:PORT) serves DAP on its port.
  attachArguments: () => ({ mode: "remote" }),
};

// Node's own inspector, driven by the bridge's in-process adapter: the candidate is the node that
// runs the program (every Node with --inspect-publish-uid: 12.6 and later).
const node: AdapterSpec = {
  language: "node",
  label: "Node inspector (node --inspect-brk, in-process adapter)",
  install: "install Node.js (node on PATH)",
  candidates: [{ command: "node", args: [], check: ["--version"] }],
  adapterId: "node",
  launchArguments(input) {
    return { program: input.program, args: [...input.args], cwd: input.cwd, env: { ...input.env }, stopOnEntry: input.stopOnEntry };
  },
  uncaughtFilters: ["uncaught"],
  extensions: [".js", ".mjs", ".cjs", ".ts", ".mts", ".cts"],
  inProcess: "node-inspector",
  attachArguments: (target) => ({ port: target.port, cwd: target.cwd, roots: [...target.roots], closeInspector: target.closeInspector }),
};

export const DEBUG_ADAPTERS: Readonly<Record<DebugLanguage, AdapterSpec>> = { python, c, go, node };

export function isDebugLanguage(name: string): name is DebugLanguage {
  return Object.hasOwn(DEBUG_ADAPTERS, name);
}
