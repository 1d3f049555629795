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
  // One shell and its builtins, no helper process: each call's record is named by the wrapper's own
  // pid as /proc shows it (not $$, which inside a PID namespace of its own is the same for every
  // call), unique while the call runs, and starts with its argument count. A git call still starting when the tool answered
  // (another call failed first) may be half-written: it is not read until its count is all there.
  // (mktemp and mv per call were two more processes for each of some 550 git calls of the injection
  // table, about a tenth of its CPU.)
  const script = `#!/bin/sh\nread -r p rest < /proc/self/stat\nprintf '%s\\0' "$#" "$@" > "$GIT_ARGV_DIR/call.$p"\nexec ${JSON.stringify(realGit)} "$@"\n`;
  await writeFile(join(bin, "git"), script);
  await chmod(join(bin, "git"), 0o755);
  return {
    async env() {
      const dir = await mkdtemp(join(base, "argv-"));
      return {
        env: { PATH: `${bin}:${pathEnv}`, GIT_ARGV_DIR: dir },
        async calls() {
          const files = (await readdir(dir)).filter((f) => f.startsWith("call."));
          const records = await Promise.all(files.map(async (f) => (await readFile(join(dir, f), "utf8")).split("\0").slice(0, -1)));
          return records.flatMap(([count, ...argv]) => (argv.length === Number(count) ? [argv] : []));
        },
      };
    },
  };
}
