// runCommand's (and runInTerminal's) git, after the allowlist's checks: the git command rules
// (src/security/git/command-git-rules.ts), every path it names resolved through the jail (a symlink
// in the workspace must not lead git's reads or writes outside), an alias the repository defines
// refused by name, then the one runner with the same overrides the git tools get.
import { ToolError } from "../../errors.ts";
import { gitCommandRefusal, pathCandidates, readGitCommandLine } from "../../security/git/command-git-rules.ts";
import { isUntrusted } from "../../security/git/repo-config-guard.ts";
import type { WorkspaceFs } from "../../workspace/workspace-fs.ts";
import { openGit, type GitCallOptions, type GitResult, type SpawnGit } from "./git-runner.ts";

const PRINT_ONLY_OPTIONS = new Set(["--version", "-v", "--help", "-h", "--html-path", "--man-path", "--info-path", "--exec-path"]);

export async function runGitCommand<R extends GitResult>(
  spawn: SpawnGit<R>,
  opts: GitCallOptions & { args: readonly string[]; env?: unknown; cwd?: string },
  where: { fs: WorkspaceFs; cwd: string; hooks: boolean },
): Promise<R> {
  const line = readGitCommandLine(opts.args);
  const why = gitCommandRefusal(line);
  if (why !== undefined) throw refused(why);
  await refuseLinksOutside(where.fs, where.cwd, opts.args);
  // Options that only print something about git itself select no repository: `git --version`
  // must not become `git --version config --list` when the runner reads the repository's config.
  const repositoryArgs = line.global.filter((a) => !PRINT_ONLY_OPTIONS.has(a));
  const git = await openGit(spawn, { access: line.access, repositoryArgs, hooks: where.hooks });
  const alias = line.sub === undefined ? undefined : git.config.find((e) => isUntrusted(e) && e.key === `alias.${line.sub}`);
  if (alias !== undefined)
    throw refused(`\`git ${line.sub}\` is an alias this repository's own config defines (\`${alias.value.slice(0, 200)}\`)`);
  const { args: _args, env: _env, cwd: _cwd, ...call } = opts;
  return git.run(opts.args, call);
}

/** An argument naming an existing path that the jail resolves to outside the workspace is refused. */
async function refuseLinksOutside(fs: WorkspaceFs, cwd: string, args: readonly string[]): Promise<void> {
  for (const candidate of pathCandidates(args)) {
    const path = candidate.startsWith("/") ? candidate : `${cwd}/${candidate}`;
    try {
      await fs.resolve(path, { mustExist: false });
    } catch (err) {
      if (err instanceof ToolError && err.code === "outside_workspace") {
        throw refused(`the argument \`${candidate.slice(0, 200)}\` leads outside the workspace (${err.message})`);
      }
    }
  }
}

function refused(why: string): ToolError {
  return new ToolError("command_refused", `Refused git: ${why}`, {
    suggestion: "Use the git tools (getGitStatus, getGitDiff, gitCommit, gitPush...), or a command that stays inside the workspace.",
  });
}
