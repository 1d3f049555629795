// The two Claude Code CLI releases the e2e suite runs against, since users run both: the newest, which probes
// with `server/discover` first (stdio too since about 2.1.292), and 2.1.197, the last of the older
// generation (plain initialize). Both are devDependencies that ship a native binary; their bins
// collide in node_modules/.bin, so each is addressed by its package path. Runs in a throwaway HOME.
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { claudeEnv } from "./claude-env.ts";
import { REPO_ROOT } from "./spawn-bridge.ts";

export interface ClaudeCli {
  version: string;
  bin: string;
}

export const CLAUDE_CLIS: readonly ClaudeCli[] = [
  { version: "2.1.332", bin: join(REPO_ROOT, "node_modules", "@anthropic-ai", "claude-code", "bin", "claude.exe") },
  { version: "2.1.197", bin: join(REPO_ROOT, "node_modules", "claude-code-2-1-197", "bin", "claude.exe") },
];

export interface ClaudeRun {
  code: number;
  /** stdout and stderr together, as a user reads them. */
  out: string;
  elapsedMs: number;
}

export function runClaude(
  cli: ClaudeCli,
  args: string[],
  opts: { cwd: string; home: string; env?: Record<string, string> },
): Promise<ClaudeRun> {
  const started = Date.now();
  return new Promise((resolve) => {
    execFile(
      cli.bin,
      args,
      { cwd: opts.cwd, env: { ...claudeEnv(opts.home), ...opts.env }, timeout: 60_000, maxBuffer: 4 * 1024 * 1024 },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === "number" ? err.code : 1) : 0;
        resolve({
          code,
          out: `${stdout}${stderr}${err && typeof err.code !== "number" ? `\n[${err.message}]` : ""}`,
          elapsedMs: Date.now() - started,
        });
      },
    );
  });
}

/**
 * The CLIs found usable in this worker. The e2e files share their worker's modules (vitest.config.ts),
 * so each binary's `--version` (a cold start of a large binary) runs once per worker, not per file.
 */
const usable = new Set<string>();

/** Fails with what to do when the CLI is not installed or does not run. */
export async function assertClaudeUsable(cli: ClaudeCli, home: string): Promise<void> {
  if (usable.has(cli.bin)) return;
  const version = existsSync(cli.bin) ? await runClaude(cli, ["--version"], { cwd: REPO_ROOT, home }) : undefined;
  if (version?.code === 0 && version.out.includes(`${cli.version} (Claude Code)`)) usable.add(cli.bin);
  else {
    throw new Error(
      `Claude Code CLI ${cli.version} not usable at ${cli.bin}: ${version?.out.trim() ?? "missing"}\n` +
        "It is a devDependency; run `npm ci` (its postinstall installs the native binary) or `node <its package dir>/install.cjs`.",
    );
  }
}
