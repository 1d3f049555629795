// VS Code's terminals as the terminal toolset and runInTerminal use them: found by id or name,
// created with a jailed directory and a checked environment, and commands run in them only as
// runCommand would run them (the same allowlist and argument checks, src/capabilities/exec/exec.ts
// vetAllowed), quoted for the terminal's shell (shell-quote.ts) so it sees exactly the argv that was
// checked, or refused when that shell's quoting is not known.
import type { ToolContext } from "../../capabilities/context.ts";
import type { WireTerminal } from "../../extension/protocol-ide.ts";
import { ToolError } from "../../errors.ts";
import { terminalCommandLine } from "./shell-quote.ts";

/** How long a command waits for the shell's integration to start in a new terminal. */
export const INTEGRATION_WAIT_MS = 10_000;

/**
 * Variables that make programs load other code or find other programs: with one of them an
 * allowlisted `npm test` runs anything (the debugger's launch rules refuse the same kind).
 */
const LOADER_VARIABLES =
  /^(?:LD_\w*|DYLD_\w*|PATH|PYTHONSTARTUP|PYTHONPATH|PYTHONHOME|NODE_OPTIONS|NODE_PATH|BASH_ENV|ENV|PROMPT_COMMAND|ZDOTDIR|SHELL|HOME|GIT_\w*|npm_config_\w*|NPM_CONFIG_\w*|PERL5OPT|PERL5LIB|RUBYOPT|JAVA_TOOL_OPTIONS|_JAVA_OPTIONS)$/;
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Why an environment variable cannot be given to a terminal, or undefined. */
export function terminalEnvProblem(name: string): string | undefined {
  if (!NAME.test(name)) return `"${name.slice(0, 80)}" is not a variable name`;
  if (LOADER_VARIABLES.test(name)) return `${name} changes which programs run or what they load`;
  return undefined;
}

type Ctx = Pick<ToolContext, "extension" | "signal">;

/** The terminal a model named: its id ("t3") or its name (when one terminal has it). */
export async function findTerminal(ctx: Ctx, ref: string): Promise<WireTerminal> {
  const { terminals } = await ctx.extension.request("extension/listTerminals", {}, { signal: ctx.signal });
  const byId = terminals.find((t) => t.id === ref);
  if (byId !== undefined) return byId;
  const named = terminals.filter((t) => t.name === ref);
  if (named.length === 1 && named[0] !== undefined) return named[0];
  const known = terminals.map((t) => `${t.id} "${t.name}"`).join(", ") || "none";
  if (named.length > 1)
    throw new ToolError("invalid_arguments", `${named.length} terminals are named "${ref}": ${named.map((t) => t.id).join(", ")}`, {
      suggestion: "Name the terminal by its id.",
    });
  throw new ToolError("terminal_not_found", `No terminal "${ref}" in VS Code (terminals: ${known})`, {
    suggestion: "Create one with createTerminal, or use an id listTerminals gives.",
  });
}

export interface NewTerminal {
  name: string;
  /** Absolute and checked (ctx.fs.resolve). */
  cwd: string;
  env?: Readonly<Record<string, string>>;
  show?: boolean;
}

export async function createTerminal(ctx: Ctx & Pick<ToolContext, "settings">, spec: NewTerminal): Promise<WireTerminal> {
  for (const name of Object.keys(spec.env ?? {})) {
    const problem = terminalEnvProblem(name);
    if (problem !== undefined)
      throw new ToolError("invalid_arguments", `Refused env ${problem}`, {
        suggestion:
          "Set only plain settings variables (PORT, DEBUG, NODE_ENV...); the terminal starts in the workspace with the user's own PATH.",
      });
  }
  const { terminal } = await ctx.extension.request(
    "extension/createTerminal",
    { name: spec.name, cwd: spec.cwd, env: { ...spec.env }, passEnv: [...(ctx.settings.passEnv ?? [])], show: spec.show ?? true },
    { signal: ctx.signal },
  );
  return terminal;
}

/** What one command in a terminal gave. */
export interface TerminalRun {
  terminal: WireTerminal;
  commandLine: string;
  mode: "shellIntegration" | "sendText";
  finished: boolean;
  exitCode?: number | null;
  output?: string;
  outputDropped?: boolean;
  since: number;
}

/**
 * Runs `command args` in the terminal, once, after runCommand's checks; waits up to `waitMs`. git
 * is refused: in a terminal it would run the repository's hooks and config, which the bridge's own
 * git runner neutralises.
 */
export async function runInTerminal(
  ctx: Ctx & Pick<ToolContext, "exec">,
  terminal: WireTerminal,
  line: { command: string; args: readonly string[]; cwd?: string; waitMs: number },
): Promise<TerminalRun> {
  if (line.command === "git")
    throw new ToolError("command_refused", "git does not run in a terminal through the bridge: there it would run the repository's hooks", {
      suggestion: "Use runCommand with git, or the git tools (getGitStatus, gitCommit...).",
    });
  const vetted = await ctx.exec.vetAllowed(line.command, { args: line.args, ...(line.cwd === undefined ? {} : { cwd: line.cwd }) });
  // The terminal's shell may be anywhere by now: the checked directory is where the command runs.
  const commandLine = terminalCommandLine(
    terminal.shell,
    [line.command, ...vetted.args],
    line.cwd === undefined ? {} : { cwd: vetted.cwd },
  );
  const result = await ctx.extension.request(
    "extension/terminalCommand",
    { id: terminal.id, commandLine, waitMs: line.waitMs, integrationWaitMs: terminal.shellIntegration ? 0 : INTEGRATION_WAIT_MS },
    { signal: ctx.signal },
  );
  return { terminal, commandLine, ...result };
}

/** The plain-text answer of a terminal run, output cut to `maxChars` (its end kept: the verdict is there). */
export function formatTerminalRun(run: TerminalRun, maxChars: number): string {
  const where = `VS Code terminal ${run.terminal.id} "${run.terminal.name}"`;
  if (run.mode === "sendText")
    return [
      `$ ${run.commandLine}`,
      `typed into ${where}: its shell has no shell integration, so there is no exit code and its output cannot be read.`,
      "Ask the user what it printed, or run it with runCommand for the exit code and output.",
    ].join("\n");
  const status = run.finished
    ? `exit ${run.exitCode ?? "unknown (the shell did not report it)"}`
    : `still running in ${where} (output so far below; waitForTerminalOutput or getTerminalOutput with since ${run.since} reads more)`;
  const out = [`$ ${run.commandLine}`, `${status} · ${where}`];
  const output = (run.output ?? "").replace(/\n+$/, "");
  out.push("", output === "" ? "(no output)" : tail(output, maxChars));
  if (run.outputDropped) out.push("", "[the start of its output was already dropped from the terminal's buffer]");
  return out.join("\n");
}

/** The end of `text`, at most `max` characters, cut at a line start and marked. */
export function tail(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(text.length - max);
  const at = cut.indexOf("\n");
  return `[${text.length - max + (at + 1)} characters before this cut]\n${at >= 0 ? cut.slice(at + 1) : cut}`;
}
