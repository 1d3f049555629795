// ctx.exec: how a tool runs a program. Never a shell: the executable gets its arguments as an
// array, so nothing in them is interpreted; it runs in a workspace directory, with the bridge's
// secrets removed from the environment (and the user's, for what the caller chose: child-env.ts);
// its whole process tree is killed when the call is cancelled or times out, or left behind when it
// exits (end-tree.ts), and output is capped with a marker. Three ways in, one per kind of caller:
//   run          the executables the tool declared (requires.probes): rg, gh;
//   git          git, declared like the others, through the one runner (git-runner.ts);
//   runAllowed   a program the user's request names (runCommand): through the allowlist, the
//                argument rules and the identity check (src/security/commands/command-policy.ts);
//   runToolchain a test runner, checker or formatter with an argv the tool built (src/capabilities/exec/toolchain.ts).
import type { Runtime } from "../../ports/runtime.ts";
import { ToolError, errorMessage, fsErrorCode } from "../../errors.ts";
import { checkCommandLine } from "../../security/commands/command-policy.ts";
import { checkCommandReach } from "../../security/commands/command-reach.ts";
import { checkProjectConfig } from "../../security/commands/project-config.ts";
import { expandArguments } from "../../security/commands/expand-arguments.ts";
import type { WorkspaceFs } from "../../workspace/workspace-fs.ts";
import { collectOutput, type CollectedOutput, type OutputKeep } from "./collect-output.ts";
import { childEnvironment, type ChildEnvOptions } from "../../security/commands/child-env.ts";
import type { CommandGuard } from "./command-guard.ts";
import { endLeftovers, killAfterGrace } from "./end-tree.ts";
import { runGitCommand } from "./git-command.ts";
import type { GitOpeningMemo } from "./git-opening-memo.ts";
import { guardedSettings, openGit, type GitOpenOptions, type OpenedGit, type SpawnGit } from "./git-runner.ts";
import { findProgram, type FoundProgram, type ProgramLookupRuntime } from "./program-lookup.ts";
import { createReportFile } from "./report-file.ts";
import { assertToolchainArgv, isToolchainProgram } from "./toolchain.ts";
import { GIT_CHILD_ENV, configEnvironment, gitEnvironment } from "../../security/git/git-environment.ts";

/**
 * Declared programs that run git inside: gh finds the repository with `git remote -v` and
 * `git config`, in the workspace, with the repository's config.
 */
const RUNS_GIT = new Set(["gh"]);

/**
 * rg runs another program only through a preprocessor (--pre, which a config file can add), a
 * decompressor (-z) or a hostname program (--hostname-bin): without them, and with its config off,
 * it starts nothing, so its process group is its whole tree and it needs no PID namespace (an
 * unshare and a shell around every search). Any argument that looks like one of them (a pattern
 * too) keeps the namespace.
 */
function startsNothing(command: string, args: readonly string[]): boolean {
  if (command !== "rg" || !args.includes("--no-config")) return false;
  return !args.some((a) => /^--(pre|search-zip|hostname-bin)/.test(a) || /^-[^-]*z/.test(a));
}

const DEFAULT_MAX_OUTPUT_BYTES = 1024 * 1024;
/** Config and response files read to judge a command line. */
const MAX_READ_BYTES = 1024 * 1024;

export interface RunOptions {
  args: readonly string[];
  /** Directory to run in, as a workspace path (default: the workspace root). */
  cwd?: string;
  /** Written to stdin, which is then closed (stdin is closed at once without it). */
  stdin?: string;
  /** Added to the child's environment (the bridge's, minus its secrets). */
  env?: Readonly<Record<string, string>>;
  /** Kills the process tree after this long (the call's own cancellation applies anyway). */
  timeoutMs?: number;
  /** Per stream; what comes after is dropped and marked (default 1 MiB). */
  maxOutputBytes?: number;
  /** Which part of a long output to keep (default the head). */
  keep?: OutputKeep;
  /** Each chunk of output as it arrives (for progress with the latest lines). */
  onOutput?(stream: "stdout" | "stderr", text: string): void;
}

export interface RunResult extends CollectedOutput {
  exitCode: number;
  durationMs: number;
  /** Killed by `timeoutMs`. */
  timedOut: boolean;
  /** Processes it left behind held its output open after it exited, and were stopped. */
  leftoversStopped: boolean;
}

interface ToolchainRunOptions extends Omit<RunOptions, "args"> {
  /** The argv, or a function of a private report file's path (e.g. `--junitxml=<path>`). */
  args: readonly string[] | ((reportPath: string) => readonly string[]);
}

export interface ToolchainResult extends RunResult {
  /** What the runner wrote to the report file, when `args` asked for one. */
  report?: string;
}

export interface Exec {
  run(command: string, opts: RunOptions): Promise<RunResult>;
  /** Opens the repository at `cwd` for git runs (git-runner.ts); the tool must declare git. */
  git(opts: GitOpenOptions): Promise<OpenedGit<RunResult>>;
  runAllowed(command: string, opts: RunOptions): Promise<RunResult>;
  /**
   * runAllowed's checks without running: for a command line another runner runs (a VS Code
   * terminal). The expanded arguments and the checked directory, or a command_refused ToolError.
   */
  vetAllowed(command: string, opts: { args: readonly string[]; cwd?: string }): Promise<VettedCommand>;
  runToolchain(command: string, opts: ToolchainRunOptions): Promise<ToolchainResult>;
  /** Whether a toolchain program is installed (the project's node_modules/.bin, PATH, the bridge's own copy). */
  hasToolchain(command: string): Promise<boolean>;
}

export interface VettedCommand {
  readonly args: readonly string[];
  /** Absolute, inside the workspace. */
  readonly cwd: string;
  /** The program PATH gives (for the bridge's own spawn; another runner looks it up itself). */
  readonly path: string;
}

export interface ExecDeps {
  runtime: Pick<Runtime, "spawn" | "which" | "env" | "fs" | "paths" | "resolveHost"> & Pick<ProgramLookupRuntime, "languageServers">;
  fs: WorkspaceFs;
  guard: CommandGuard;
  /** --allow-git-hooks: the repository's hooks run on git runs that change it. */
  gitHooks?: boolean;
  /** Openings' answers kept between calls while their files are unchanged (one per bridge). */
  gitOpenings?: GitOpeningMemo;
}

/** The Exec of one call: `declared` are the executables its tool declared, `signal` the call's. */
export function createExec(deps: ExecDeps, call: { declared: readonly string[]; signal: AbortSignal }): Exec {
  const { declared, signal } = call;
  const cwdOf = (opts: { cwd?: string }) => workingDirectory(deps.fs, opts.cwd);
  // What the model or the project's code chose to run gets none of the user's secrets (src/security/commands/child-env.ts).
  const chosenByCaller: ChildEnvOptions = { dropSecrets: true, passEnv: deps.guard.passEnv };
  // git's own environment: only what git needs (src/security/git/git-environment.ts). The runner's
  // own runs without hooks start nothing that leaves their process group, so ending their tree
  // needs no scan for escaped processes; a command line the caller wrote (runCommand's git) may.
  const gitEnv = () => gitEnvironment(deps.runtime.env, { passEnv: deps.guard.passEnv });
  const spawnGit = async (cwd: string, how: { callerArgv: boolean }, env = gitEnv()): Promise<SpawnGit<RunResult>> => {
    const path = await deps.runtime.which("git");
    if (path === undefined) throw missing("git");
    return (args, o, run) =>
      runResolved(deps.runtime, path, cwd, { ...o, args }, { signal, env: { exact: env }, groupOnly: !how.callerArgv && !run.hooks });
  };
  // A program that runs git itself gets the runner's settings in its environment, so its git runs
  // none of the repository's programs either. Without git on PATH it cannot run git at all.
  const gitGuardEnvironment = async (cwd: string): Promise<Record<string, string>> => {
    if ((await deps.runtime.which("git")) === undefined) return {};
    const settings = await guardedSettings(await spawnGit(cwd, { callerArgv: false }), "read");
    return { ...GIT_CHILD_ENV, ...configEnvironment(settings, deps.runtime.env) };
  };
  const locate = async (command: string): Promise<FoundProgram> => {
    const found = await findProgram(deps.runtime, command, { root: deps.fs.root });
    if (found === undefined) throw missing(command);
    return found;
  };
  // What runAllowed checks before it runs: the command line as it would be read, in its directory.
  const vet = async (command: string, opts: { args: readonly string[]; cwd?: string }): Promise<VettedCommand> => {
    const cwd = await cwdOf(opts);
    const place = { cwd, folders: deps.fs.folders };
    const readText = (path: string) => deps.fs.readText(path, { maxBytes: MAX_READ_BYTES }).catch(() => undefined);
    // Judged as the tool would read them (aliases and response files expanded), and run so: a
    // file changed after the check cannot change what runs.
    const args = await expandArguments({ command, args: opts.args, place }, { readText });
    const refusal =
      checkCommandLine(deps.guard.policy, { command, args, place }) ??
      (await checkCommandReach(
        { command, args, place },
        { fs: deps.runtime.fs, resolveHost: deps.runtime.resolveHost, allowPrivate: deps.guard.allowPrivateNetwork, readText },
      ));
    if (refusal !== undefined) throw new ToolError("command_refused", refusal.why, { suggestion: refusal.suggestion });
    const found = await locate(command);
    const disguised = await deps.guard.identity.refusal(found.path, { folders: deps.fs.folders, projectBin: found.projectBin });
    if (disguised !== undefined) {
      throw new ToolError("command_refused", `Refused \`${command}\`: ${disguised}`, {
        suggestion: "Ask the user to check that PATH gives the real tool; interpreters never run through runCommand.",
      });
    }
    return { args, cwd, path: found.path };
  };
  return {
    async run(command, opts) {
      if (command === "git") {
        throw new ToolError("internal_error", "git runs through ctx.exec.git, which neutralises the repository's programs", {
          suggestion: "This is a bridge bug: open the repository with ctx.exec.git (src/capabilities/exec/git-runner.ts).",
        });
      }
      if (!declared.includes(command)) {
        throw new ToolError(
          "internal_error",
          `This tool may not run \`${command}\` (it declares ${declared.length > 0 ? declared.join(", ") : "no executables"})`,
          {
            suggestion: "This is a bridge bug: the tool must list the executable in requires.probes.",
          },
        );
      }
      const path = await deps.runtime.which(command);
      if (path === undefined) throw missing(command);
      const cwd = await cwdOf(opts);
      const env = RUNS_GIT.has(command) ? { ...opts.env, ...(await gitGuardEnvironment(cwd)) } : opts.env;
      return runResolved(
        deps.runtime,
        path,
        cwd,
        { ...opts, ...(env === undefined ? {} : { env }) },
        { signal, env: { dropSecrets: false }, ...(startsNothing(command, opts.args) ? { groupOnly: true } : {}) },
      );
    },
    async git(opts) {
      if (!declared.includes("git")) {
        throw new ToolError("internal_error", `This tool may not run \`git\` (it declares ${declared.join(", ") || "no executables"})`, {
          suggestion: "This is a bridge bug: the tool must list git in requires.probes or optionalProbes.",
        });
      }
      const cwd = await cwdOf(opts);
      const env = gitEnv();
      const place = deps.gitOpenings === undefined ? {} : { place: { memo: deps.gitOpenings, cwd, env } };
      return openGit(await spawnGit(cwd, { callerArgv: false }, env), { ...opts, hooks: deps.gitHooks === true, ...place });
    },
    vetAllowed: vet,
    async runAllowed(command, opts) {
      const { args, cwd, path } = await vet(command, opts);
      if (command === "git")
        return runGitCommand(
          await spawnGit(cwd, { callerArgv: true }),
          { ...opts, args },
          { fs: deps.fs, cwd, hooks: deps.gitHooks === true },
        );
      return runResolved(deps.runtime, path, cwd, { ...opts, args }, { signal, env: chosenByCaller });
    },
    async runToolchain(command, opts) {
      if (!isToolchainProgram(command)) assertToolchainArgv(command, []);
      const cwd = await cwdOf(opts);
      const place = { cwd, folders: deps.fs.folders };
      const readText = (path: string) => deps.fs.readText(path, { maxBytes: MAX_READ_BYTES }).catch(() => undefined);
      // The argv is the tool's; the project's config files are not (a plugin in pytest's addopts).
      const configured = await checkProjectConfig(
        { command, args: typeof opts.args === "function" ? [] : opts.args, place },
        { readText, resolveHost: deps.runtime.resolveHost, allowPrivate: deps.guard.allowPrivateNetwork },
      );
      if (configured !== undefined) throw new ToolError("command_refused", configured.why, { suggestion: configured.suggestion });
      const found = await locate(command);
      const report = typeof opts.args === "function" ? await createReportFile(deps.runtime) : undefined;
      try {
        const args = typeof opts.args === "function" ? opts.args(report?.path ?? "") : opts.args;
        assertToolchainArgv(command, args);
        const result: ToolchainResult = await runResolved(
          deps.runtime,
          found.path,
          cwd,
          { ...opts, args },
          { signal, env: chosenByCaller },
        );
        const text = await report?.read(opts.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES);
        if (text !== undefined) result.report = text;
        return result;
      } finally {
        await report?.remove().catch(() => {});
      }
    },
    async hasToolchain(command) {
      return isToolchainProgram(command) && (await findProgram(deps.runtime, command, { root: deps.fs.root })) !== undefined;
    },
  };
}

async function workingDirectory(fs: WorkspaceFs, dir: string | undefined): Promise<string> {
  const cwd = await fs.resolve(dir ?? ".");
  if (!(await fs.stat(cwd)).isDirectory) {
    throw new ToolError("not_a_directory", `${dir ?? "."} is not a directory`, { suggestion: "Run it in a directory of the workspace." });
  }
  return cwd;
}

function missing(command: string): ToolError {
  return new ToolError("probe_missing", `\`${command}\` is not on the bridge's PATH`, {
    suggestion: `Install ${command} (or add it to the project), make sure the bridge's PATH has it, and restart the bridge.`,
  });
}

async function runResolved(
  runtime: ExecDeps["runtime"],
  path: string,
  cwd: string,
  opts: RunOptions,
  call: { signal: AbortSignal; env: ChildEnvOptions | { exact: Record<string, string> }; groupOnly?: boolean },
): Promise<RunResult> {
  const { signal } = call;
  const timeout = opts.timeoutMs === undefined ? undefined : AbortSignal.timeout(opts.timeoutMs);
  // A signal of this run's own, even without a timeout: the spawn and the kill timer listen on it,
  // and a call's signal shared by many parallel runs (git tools run several at once) would collect
  // their listeners (Node warns past 10). AbortSignal.any adds no listener to its sources.
  const stop = AbortSignal.any(timeout === undefined ? [signal] : [signal, timeout]);
  const started = performance.now();
  const child = runtime.spawn(path, [...opts.args], {
    cwd,
    env: "exact" in call.env ? call.env.exact : childEnvironment(runtime.env, opts.env, call.env),
    ...(opts.stdin === undefined ? {} : { stdin: opts.stdin }),
    processGroup: true,
    // A tree that may detach (a user's command, a hook) gets a PID namespace too: it ends with its command.
    ...(call.groupOnly === true ? { groupOnly: true } : { ownPidNamespace: true }),
    // SIGTERM to the group on a stop; killAfterGrace follows with SIGKILL (src/capabilities/exec/end-tree.ts).
    signal: stop,
  });
  killAfterGrace(child, { stop, done: child.exited });
  const stopReading = new AbortController();
  const output = collectOutput(child, {
    maxBytes: opts.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES,
    signal: stopReading.signal,
    ...(opts.keep === undefined ? {} : { keep: opts.keep }),
    ...(opts.onOutput === undefined ? {} : { onOutput: opts.onOutput }),
  });
  let exitCode: number;
  try {
    exitCode = await child.exited;
  } catch (err) {
    throw new ToolError(
      fsErrorCode(err) === "EACCES" ? "permission_denied" : "internal_error",
      `Could not run ${path}: ${errorMessage(err)}`,
      {
        suggestion: "Check that the executable works from a terminal.",
        cause: err,
      },
    );
  }
  const leftoversStopped = await endLeftovers(child, { output, stopReading });
  return {
    exitCode,
    ...(await output),
    durationMs: Math.round(performance.now() - started),
    timedOut: timeout?.aborted === true && !signal.aborted,
    leftoversStopped,
  };
}
