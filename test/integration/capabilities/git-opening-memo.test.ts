// A git opening's kept answer (src/capabilities/exec/git-opening-memo.ts) on real git and real
// files: given again without a process while nothing it depends on changed, and read again after
// any change that could change it: the repository's config (even rewritten to the same size and
// mtime), an include that appears (through a symlinked folder too), a conditional include's branch,
// a `.git` appearing below the top, the user's global config. A file changed just before the read
// keeps nothing.
// The memo's clock is set ahead of the real one where a test needs the files to count as settled
// (it keeps nothing changed in the last two seconds).
import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, readFile, realpath, rm, stat, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { createNodeRuntime } from "../../../runtime/node.ts";
import { createCommandGuard } from "../../../src/capabilities/exec/command-guard.ts";
import { createExec } from "../../../src/capabilities/exec/exec.ts";
import { parseLocation } from "../../../src/capabilities/exec/git-location.ts";
import { GitOpeningMemo } from "../../../src/capabilities/exec/git-opening-memo.ts";
import { createWorkspace } from "../../../src/security/jail/workspace-jail.ts";
import { createWorkspaceFs } from "../../../src/workspace/workspace-fs.ts";

const base = await realpath(await mkdtemp(join(tmpdir(), "cib-git-memo-")));
afterAll(() => rm(base, { recursive: true, force: true }));

const git = (cwd: string, ...args: string[]) => execFileSync("git", args, { cwd, encoding: "utf8", stdio: "pipe" });

interface Bridge {
  /** Opens the repository from `cwd` (workspace-relative) as a git tool does; returns what it listed and where it found it. */
  open(cwd?: string): Promise<{ keys: string[]; top: string; overrides: string[] }>;
  /** git processes started so far. */
  spawned: string[][];
}

let n = 0;
let root: string;
let home: string;

beforeEach(async () => {
  n++;
  root = join(base, `ws${n}`);
  home = join(base, `home${n}`);
  await mkdir(join(root, "sub", "deeper"), { recursive: true });
  await mkdir(home, { recursive: true });
  git(root, "init", "-q", "-b", "main");
  git(root, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", "first");
});

async function bridge(clock: { aheadMs: number }): Promise<Bridge> {
  const node = createNodeRuntime();
  const spawned: string[][] = [];
  const runtime = {
    ...node,
    env: { PATH: process.env.PATH ?? "", HOME: home, GIT_CONFIG_NOSYSTEM: "1" },
    spawn: (cmd: string, args: string[], opts: Parameters<typeof node.spawn>[2]) => {
      spawned.push(args);
      return node.spawn(cmd, args, opts);
    },
  };
  const fs = createWorkspaceFs(node.fs, await createWorkspace(node.fs, { root }));
  const memo = new GitOpeningMemo({ fs: node.fs, now: () => Date.now() + clock.aheadMs });
  const guard = createCommandGuard(runtime, { allowCommands: [] });
  return {
    spawned,
    async open(cwd) {
      const exec = createExec({ runtime, fs, guard, gitOpenings: memo }, { declared: ["git"], signal: new AbortController().signal });
      const opened = await exec.git({ access: "read", locate: true, ...(cwd === undefined ? {} : { cwd }) });
      const before = spawned.length;
      await opened.run(["--version"]);
      const args = spawned.splice(before)[0] ?? [];
      return {
        keys: opened.config.map((e) => `${e.key}=${e.value}`),
        top: parseLocation(opened.located?.stdout ?? "").top,
        overrides: args.filter((_, i) => args[i - 1] === "-c"),
      };
    },
  };
}

/** Opens twice, asserting the second took no process (the answer was kept). */
async function kept(b: Bridge, cwd?: string): Promise<void> {
  await b.open(cwd);
  const before = b.spawned.length;
  await b.open(cwd);
  expect(b.spawned.length - before, "the second opening started git").toBe(0);
}

describe("a git opening's kept answer", () => {
  it("is given again without a process while nothing changed, and is the same answer", async () => {
    const b = await bridge({ aheadMs: 10_000 });
    const first = await b.open();
    await kept(b);
    expect(await b.open()).toEqual(first);
    expect(b.spawned.filter((args) => args.includes("config")).length).toBe(1);
  });

  it("sees a filter driver written into .git/config, even at the same size with the old mtime put back", async () => {
    const b = await bridge({ aheadMs: 10_000 });
    const config = join(root, ".git", "config");
    await writeFile(config, `${await readFile(config, "utf8")}[filter "aaaa"]\n\tsmudge = old-smudge\n`);
    await kept(b);
    const before = await stat(config, { bigint: true });
    await writeFile(config, (await readFile(config, "utf8")).replace("old-smudge", "rm -rf ~/x"));
    // The old mtime back, to the nanosecond (GNU touch; utimes takes a double of seconds).
    const ns = before.mtimeNs.toString().padStart(10, "0");
    execFileSync("touch", ["-m", "-d", `@${ns.slice(0, -9)}.${ns.slice(-9)}`, config]);
    const now = await stat(config, { bigint: true });
    expect([now.size, now.mtimeNs, now.ino]).toEqual([before.size, before.mtimeNs, before.ino]);
    const after = await b.open();
    expect(after.keys).toContain("filter.aaaa.smudge=rm -rf ~/x");
    expect(after.overrides).toContain("filter.aaaa.smudge=");
  });

  it("sees an include that appears, named through a symlinked folder the file system resolves", async () => {
    const b = await bridge({ aheadMs: 10_000 });
    await mkdir(join(base, `far${n}`, "inner"), { recursive: true });
    await symlink(join(base, `far${n}`, "inner"), join(root, ".git", "lnk"));
    // git opens .git/lnk/../extra.cfg, which is far/extra.cfg (not .git/extra.cfg).
    git(root, "config", "include.path", "lnk/../extra.cfg");
    await kept(b);
    await writeFile(join(base, `far${n}`, "extra.cfg"), '[diff "pic"]\n\ttextconv = evil\n');
    const after = await b.open();
    expect(after.keys).toContain("diff.pic.textconv=evil");
    expect(after.overrides).toContain("diff.pic.textconv=");
  });

  it("follows a branch switch for an onbranch include", async () => {
    const b = await bridge({ aheadMs: 10_000 });
    await writeFile(join(root, ".git", "other.cfg"), "[core]\n\tsshCommand = evil-ssh\n");
    git(root, "config", "includeIf.onbranch:other.path", "other.cfg");
    await kept(b);
    expect((await b.open()).keys).not.toContain("core.sshcommand=evil-ssh");
    git(root, "checkout", "-q", "-b", "other");
    expect((await b.open()).keys).toContain("core.sshcommand=evil-ssh");
  });

  it("finds a repository made below the top, between it and the directory git runs in", async () => {
    const b = await bridge({ aheadMs: 10_000 });
    await kept(b, "sub/deeper");
    expect((await b.open("sub/deeper")).top).toBe(root);
    git(join(root, "sub"), "init", "-q");
    expect((await b.open("sub/deeper")).top).toBe(join(root, "sub"));
  });

  it("sees the user's global config change", async () => {
    const b = await bridge({ aheadMs: 10_000 });
    await kept(b);
    await writeFile(join(home, ".gitconfig"), "[user]\n\tname = Someone New\n");
    expect((await b.open()).keys).toContain("user.name=Someone New");
  });

  it("keeps nothing read within two seconds of a change to a file it depends on", async () => {
    const b = await bridge({ aheadMs: 10_000 });
    await kept(b);
    // The real clock: the config below changed less than two seconds before the next read.
    const now = await bridge({ aheadMs: 0 });
    git(root, "config", "user.name", "just now");
    await now.open();
    expect((await now.open()).keys).toContain("user.name=just now");
    expect(now.spawned.filter((args) => args.includes("config")).length).toBe(2);
  });
});
