// A PATH-first wrapper named git that records the argv each git call received (NUL-separated, one
// file per call: no argument can contain NUL, so the record is exact), then runs the real git.
import { execFileSync } from "node:child_process";
import { chmod, mkdir, mkdtemp, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";

export interface ArgvLog {
  /** PATH and GIT_ARGV_DIR for the bridge's runtime: every git it runs goes through the wrapper. */
  env(): Promise<{ env: Record<string, string>; calls(): Promise<string[][]> }>;
}

export async function gitArgvLog(base: string, pathEnv: string): Promise<ArgvLog> {
  const realGit = execFileSync("sh", ["-c", "command -v git"], { encoding: "utf8" }).trim();
  const bin = join(base, "wrapper-bin");
  await mkdir(bin, { recursive: true });
  // Written under another name and renamed when whole: a tool that answers while one of its git
  // calls is still starting (another call failed first) must not leave a half-written argv to read.
  const script = `#!/bin/sh\nf=$(mktemp "$GIT_ARGV_DIR/part.XXXXXXXX")\nfor a in "$@"; do printf '%s\\0' "$a"; done > "$f"\nmv "$f" "$GIT_ARGV_DIR/call.\${f##*/part.}"\nexec ${JSON.stringify(realGit)} "$@"\n`;
  await writeFile(join(bin, "git"), script);
  await chmod(join(bin, "git"), 0o755);
  return {
    async env() {
      const dir = await mkdtemp(join(base, "argv-"));
      return {
        env: { PATH: `${bin}:${pathEnv}`, GIT_ARGV_DIR: dir },
        async calls() {
          const files = (await readdir(dir)).filter((f) => f.startsWith("call."));
          return Promise.all(files.map(async (f) => (await readFile(join(dir, f), "utf8")).split("\0").slice(0, -1)));
        },
      };
    },
  };
}
