// doctor's checks of the tools the bridge runs: git, rg and gh on PATH, with their versions. A tool
// that is missing is worth knowing (·). The language servers are doctor-lsp.ts's.
import type { Runtime } from "../ports/runtime.ts";
import { bareGitRun } from "../security/git/git-environment.ts";
import { type Check, probeDeadline } from "./doctor-report.ts";

const VERSION_TIMEOUT_MS = 3_000;

const TOOLS: ReadonlyArray<{ cmd: string; needFor: string }> = [
  { cmd: "git", needFor: "the git tools (status, diff, log, commit…)" },
  { cmd: "rg", needFor: "fast text search (ripgrep)" },
  { cmd: "gh", needFor: "the GitHub tools (pull requests, issues)" },
];

export async function toolChecks(runtime: Runtime, cwd: string, opts: { signal?: AbortSignal } = {}): Promise<Check[]> {
  return Promise.all(
    TOOLS.map(async ({ cmd, needFor }): Promise<Check> => {
      const path = await runtime.which(cmd);
      if (path === undefined)
        return { area: "tool", status: "info", summary: `${cmd} not found on PATH; needed for ${needFor}`, fix: `install ${cmd}` };
      // git through the bridge's git policy, as every git it runs (src/security/git/git-environment.ts).
      const run = cmd === "git" ? bareGitRun(["--version"], runtime.env) : { args: ["--version"], env: undefined };
      const version = (await firstLine(runtime, path, { args: run.args, cwd, env: run.env, signal: opts.signal })) ?? "";
      // "git version 2.39.5", "ripgrep 13.0.0": without the name again.
      return {
        area: "tool",
        status: "ok",
        summary: `${cmd} ${version.replace(/^(git|ripgrep|gh)\s+(version\s+)?/, "")} (${path})`.replace("  ", " "),
      };
    }),
  );
}

/** The first line a command prints, or undefined when it fails or takes too long. */
async function firstLine(
  runtime: Runtime,
  cmd: string,
  opts: { args: string[]; cwd: string; env: Record<string, string> | undefined; signal: AbortSignal | undefined },
): Promise<string | undefined> {
  try {
    const { args, cwd, env } = opts;
    const child = runtime.spawn(cmd, args, {
      cwd,
      signal: probeDeadline(VERSION_TIMEOUT_MS, opts.signal),
      ...(env === undefined ? {} : { env }),
    });
    const [text, code] = await Promise.all([new Response(child.stdout).text(), child.exited, new Response(child.stderr).text()]);
    return code === 0 ? text.trim().split("\n")[0]?.trim() : undefined;
  } catch {
    return undefined;
  }
}
