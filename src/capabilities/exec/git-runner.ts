// The one way the bridge runs git: the git tools and services (through ctx.exec.git), runCommand's
// and runInTerminal's git (ctx.exec.runAllowed routes "git" here). Opening reads the repository's
// config once (`git config --list`, which runs no program), and every run after that gets the
// fixed options, the hooks switched off unless the user allowed them for changes, and the overrides
// that take the repository's program-running keys away (src/security/git/); its environment is
// the one git needs, never the user's secrets (src/security/git/git-environment.ts).
//
// The policy lives in src/security/git/ (no I/O, so the command rules and doctor can use it too);
// this file is the part that runs processes, beside the rest of ctx.exec. A tool opens once per call,
// and each opening reads the config, or is given the last read while every file it depends on is
// provably unchanged (git-opening-memo.ts): a config changed between calls is seen by the next.
import { ToolError } from "../../errors.ts";
import { FIXED_GIT_ARGS, NO_HOOKS } from "../../security/git/git-environment.ts";
import {
  configOverrides,
  parseConfigList,
  type ConfigEntry,
  type GitAccess,
  type ListedConfigEntry,
} from "../../security/git/repo-config-guard.ts";
import type { OutputKeep } from "./collect-output.ts";
import { LOCATE_ARGS, parseLocation } from "./git-location.ts";
import type { GitOpeningMemo, OpeningRead } from "./git-opening-memo.ts";

/** Every scope, includes followed, each entry with the file it came from. */
const LIST_CONFIG = ["config", "--list", "--show-scope", "--show-origin", "--includes", "-z"];

/** What one git run may set (as ctx.exec's RunOptions); the argv and the environment are the runner's. */
export interface GitCallOptions {
  stdin?: string;
  timeoutMs?: number;
  maxOutputBytes?: number;
  keep?: OutputKeep;
  onOutput?(stream: "stdout" | "stderr", text: string): void;
}

/** What the runner reads of a run (ctx.exec's RunResult has more, and is what callers get back). */
export interface GitResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/**
 * Starts git with exactly this argv (after the program) in the opening's directory and environment.
 * `hooks`: whether this run may run the repository's hooks (else it runs no program of the
 * repository's, and git itself detaches nothing under the fixed settings).
 */
export type SpawnGit<R extends GitResult> = (args: readonly string[], opts: GitCallOptions, run: { hooks: boolean }) => Promise<R>;

export interface GitOpenOptions {
  access: GitAccess;
  /** Directory to run in, as a workspace path (default: the workspace root). */
  cwd?: string;
  /** Options before the subcommand that choose the repository (runCommand's -C, --git-dir): the config is read there too. */
  repositoryArgs?: readonly string[];
  /** Also ask where the repository is (LOCATE_ARGS, beside the config read: rev-parse runs no program). */
  locate?: boolean;
}

/** Where an opening may keep its answer: the memo, and the directory and environment git runs with. */
export interface OpeningPlace {
  memo: GitOpeningMemo;
  cwd: string;
  env: Readonly<Record<string, string>>;
}

export interface OpenedGit<R extends GitResult> {
  /** The config git read at the opening, every scope, includes followed. */
  readonly config: readonly ConfigEntry[];
  /** LOCATE_ARGS's result, when the opening asked (parseLocation reads it). */
  readonly located?: R;
  /** Runs git: fixed options, hooks, overrides, then `args` (which name the repository again if they must). */
  run(args: readonly string[], opts?: GitCallOptions): Promise<R>;
}

export async function openGit<R extends GitResult>(
  spawn: SpawnGit<R>,
  opts: GitOpenOptions & { hooks: boolean; place?: OpeningPlace },
): Promise<OpenedGit<R>> {
  const where = opts.repositoryArgs ?? [];
  const quiet = [...FIXED_GIT_ARGS, ...NO_HOOKS, ...where];
  const read = () => readOpening(spawn, { quiet, locate: opts.locate === true });
  // Kept only for the one question the memo knows the inputs of: the repository git finds itself.
  const { config, located } =
    opts.place !== undefined && opts.locate === true && where.length === 0
      ? await opts.place.memo.open(opts.place, read)
      : (await read()).answer;
  const guarded = guardedArgs(config, opts);
  const run = { hooks: hooksRun(opts) };
  return {
    config,
    ...(located === undefined ? {} : { located }),
    run: (args, o = {}) => spawn([...guarded, ...args], o, run),
  };
}

interface Opening<R> {
  config: readonly ListedConfigEntry[];
  located?: R;
}

async function readOpening<R extends GitResult>(
  spawn: SpawnGit<R>,
  opts: { quiet: readonly string[]; locate: boolean },
): Promise<OpeningRead<Opening<R>>> {
  const { quiet } = opts;
  const [listed, located] = await Promise.all([
    spawn([...quiet, ...LIST_CONFIG], {}, { hooks: false }),
    opts.locate ? spawn([...quiet, ...LOCATE_ARGS], {}, { hooks: false }) : undefined,
  ]);
  // Exit 1: no config at all. Anything else: git could not read it (a syntax error), so nobody can
  // say what it would run.
  if (listed.exitCode !== 0 && listed.exitCode !== 1) {
    throw new ToolError("git_failed", `git could not read the repository's config: ${listed.stderr.trim() || `exit ${listed.exitCode}`}`, {
      suggestion: "Fix the config file git names (`git config --list` in a terminal shows the error), then retry.",
    });
  }
  const entries = parseConfigList(listed.stdout);
  // git lists the runner's own -c settings too (scope "command"): they are not the user's.
  const own = new Set(quiet.filter((_, i) => quiet[i - 1] === "-c").map(asListed));
  const config = entries.filter((e) => e.scope !== "command" || !own.has(`${e.key}=${e.value}`));
  const answer = { config, ...(located === undefined ? {} : { located }) };
  if (located === undefined || located.exitCode !== 0) return { answer };
  return { answer, facts: { entries, location: parseLocation(located.stdout) } };
}

/** `-c section.sub.Name=value` as `git config --list` shows it: section and name lowercased. */
function asListed(setting: string): string {
  const eq = setting.indexOf("=");
  const key = setting.slice(0, eq);
  const first = key.indexOf(".");
  const last = key.lastIndexOf(".");
  return `${key.slice(0, first).toLowerCase()}${key.slice(first, last)}${key.slice(last).toLowerCase()}${setting.slice(eq)}`;
}

/** Hooks of a repository are its programs; they run only for changes, and only when the user said so. */
function hooksRun(opts: { access: GitAccess; hooks: boolean }): boolean {
  return opts.hooks && opts.access !== "read";
}

function guardedArgs(config: readonly ConfigEntry[], opts: { access: GitAccess; hooks: boolean }): string[] {
  return [...FIXED_GIT_ARGS, ...(hooksRun(opts) ? [] : NO_HOOKS), ...configOverrides(config, opts.access)];
}

/**
 * For a program that runs git itself (gh runs `git remote -v` and `git config` to find the
 * repository): the settings every bridge git run gets, as `key=value`, to hand over in the
 * environment (GIT_CONFIG_COUNT), where they win over the repository's config as `-c` does. Reads
 * the repository's config like an opening; hooks stay off.
 */
export async function guardedSettings<R extends GitResult>(spawn: SpawnGit<R>, access: GitAccess): Promise<string[]> {
  const git = await openGit(spawn, { access, hooks: false });
  const args = guardedArgs(git.config, { access, hooks: false });
  return args.filter((_, i) => args[i - 1] === "-c");
}
