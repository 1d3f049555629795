// Real git on temporary repositories, hermetic: a HOME and global config of the test's own (so the
// machine's user config, signing or hooks never leak in), used both by the setup commands here and
// by the bridge's git (through the runtime this returns).
import { execFileSync } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { createNodeRuntime } from "../../runtime/node.ts";
import { nodeWhich } from "../../runtime/shared/spawn.ts";
import type { ToolHost } from "../../src/tools/platform/tool-environment.ts";

export interface GitFixture {
  env: Record<string, string>;
  /** Runs git for the test's own setup; returns stdout. */
  git(cwd: string, ...args: string[]): string;
  /** A repository with one commit on main, a file per entry of `files`. */
  repo(dir: string, files?: Record<string, string>): Promise<string>;
  /** The bridge's runtime with this env (and `extra`, e.g. a PATH with a git wrapper first). */
  runtime(extra?: Record<string, string>): ToolHost["runtime"];
}

export async function gitFixture(base: string): Promise<GitFixture> {
  const home = join(base, "home");
  await mkdir(home, { recursive: true });
  await writeFile(
    join(home, ".gitconfig"),
    "[user]\n\tname = Test Author\n\temail = author@example.com\n[init]\n\tdefaultBranch = main\n[advice]\n\tdetachedHead = false\n",
  );
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined && !key.startsWith("GIT_")) env[key] = value;
  Object.assign(env, {
    HOME: home,
    XDG_CONFIG_HOME: join(home, ".config"),
    GIT_CONFIG_GLOBAL: join(home, ".gitconfig"),
    GIT_CONFIG_NOSYSTEM: "1",
  });
  const git = (cwd: string, ...args: string[]) =>
    execFileSync("git", args, { cwd, env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  return {
    env,
    git,
    async repo(dir, files = { "README.md": "# demo\n" }) {
      await mkdir(dir, { recursive: true });
      git(dir, "init", "--quiet");
      for (const [path, content] of Object.entries(files)) {
        await mkdir(join(dir, path, ".."), { recursive: true });
        await writeFile(join(dir, path), content);
      }
      git(dir, "add", "--all");
      git(dir, "commit", "--quiet", "-m", "initial commit");
      return dir;
    },
    runtime(extra = {}) {
      const runtime = createNodeRuntime();
      const all = { ...env, ...extra };
      return { ...runtime, env: all, which: (cmd) => nodeWhich(cmd, all) };
    },
  };
}
