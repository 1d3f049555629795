// A repository whose own config names programs (.git/config, and a file it includes): fsmonitor,
// filter and diff drivers, pager, editor, ssh command, credential helper, upload-pack, merge driver.
// No tool runs any of them: read tools see raw content, writes refuse a file whose filter they
// cannot run (src/security/git/repo-config-guard.ts), and hooks run only with --allow-git-hooks. Each program, if run, leaves a
// marker file; the argv git received (through a logging wrapper) shows the overrides.
import { createServer, type Server } from "node:http";
import { appendFile, chmod, mkdir, mkdtemp, readdir, realpath, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gitToolset } from "../../../src/tools/git/index.ts";
import { gitArgvLog, type ArgvLog } from "../../helpers/git-argv-log.ts";
import { gitFixture, type GitFixture } from "../../helpers/git-fixture.ts";
import { dispatcher, type Dispatcher } from "../../helpers/tool-dispatch.ts";

let base: string;
let fx: GitFixture;
let log: ArgvLog;
let markers: string;
let root: string;
let server: Server;
let port = 0;

/** A program that records that it ran, then behaves like `cat` (a filter must pass data through). */
async function marker(name: string): Promise<string> {
  const path = join(base, "programs", name);
  await writeFile(path, `#!/bin/sh\necho ran > ${JSON.stringify(join(markers, name))}\ncat\n`);
  await chmod(path, 0o755);
  return path;
}

async function ran(): Promise<string[]> {
  return (await readdir(markers)).sort();
}

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), "cib-git-hostile-")));
  fx = await gitFixture(base);
  log = await gitArgvLog(base, fx.env.PATH ?? "");
  markers = join(base, "markers");
  await mkdir(markers);
  await mkdir(join(base, "programs"));
  // An HTTP remote that wants a password: git would ask a credential helper, then a person.
  server = createServer((_req, res) => {
    res.writeHead(401, { "WWW-Authenticate": 'Basic realm="x"' });
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  port = typeof address === "object" && address !== null ? address.port : 0;

  const seed = await fx.repo(join(base, "seed"), { "a.txt": "one\ntwo\nthree\n", "merge.txt": "1\n2\n3\n4\n5\n" });
  fx.git(base, "clone", "--quiet", "--bare", seed, join(base, "origin.git"));
  root = join(base, "work");
  fx.git(base, "clone", "--quiet", join(base, "origin.git"), root);
  const c = (key: string, value: string) => fx.git(root, "config", key, value);
  c("core.fsmonitor", await marker("fsmonitor"));
  c("filter.evil.clean", await marker("filter-clean"));
  c("filter.evil.smudge", await marker("filter-smudge"));
  c("filter.evil.required", "true");
  c("diff.evil.textconv", await marker("textconv"));
  c("diff.external", await marker("external-diff"));
  c("core.pager", await marker("pager"));
  c("pager.log", await marker("pager-log"));
  c("core.editor", await marker("editor"));
  c("sequence.editor", await marker("sequence-editor"));
  c("core.askPass", await marker("askpass"));
  c("credential.helper", `!${await marker("credential-helper")}`);
  c("remote.origin.uploadpack", await marker("upload-pack"));
  c("merge.evil.driver", `${await marker("merge-driver")} %A %O %B`);
  c("core.hooksPath", join(base, "hooks"));
  await mkdir(join(base, "hooks"));
  for (const hook of ["post-checkout", "pre-commit", "post-merge", "reference-transaction"]) {
    await writeFile(join(base, "hooks", hook), `#!/bin/sh\necho ran > ${JSON.stringify(join(markers, `hook-${hook}`))}\n`, { mode: 0o755 });
  }
  // Included from the worktree: the include is followed, and its key is the repository's too.
  await writeFile(join(root, "extra.gitconfig"), `[core]\n\tsshCommand = ${await marker("ssh-command")}\n`);
  c("include.path", "../extra.gitconfig");
  c("remote.web.url", `http://127.0.0.1:${port}/repo.git`);
  c("remote.web.fetch", "+refs/heads/*:refs/remotes/web/*");
  c("remote.viassh.url", "ssh://git@127.0.0.1:1/repo.git");
  await writeFile(join(root, ".gitattributes"), "*.txt filter=evil diff=evil merge=evil\n");
  await rm(markers, { recursive: true });
  await mkdir(markers);
});

afterAll(async () => {
  server.close();
  await rm(base, { recursive: true, force: true });
});

async function logged(): Promise<{ d: Dispatcher; calls(): Promise<string[][]> }> {
  const l = await log.env();
  return { d: await dispatcher(root, { toolsets: [gitToolset], runtime: fx.runtime(l.env) }), calls: l.calls };
}

describe("read tools", () => {
  it("run nothing the repository's config names, even where git would (stat-dirty files, diffs, blame)", async () => {
    await appendFile(join(root, "a.txt"), "four\n");
    // Same size, new mtime: status must read the file and would run the clean filter to compare.
    await utimes(join(root, "merge.txt"), new Date(), new Date(Date.now() - 3_600_000));
    const { d, calls } = await logged();
    expect(await d.data("getGitStatus")).toMatchObject({ unstaged: [{ path: "a.txt" }] });
    expect(await d.text("getGitDiff")).toContain("+four");
    expect(await d.text("getGitDiff", { stat: true })).toContain("a.txt");
    expect(await d.text("gitBlame", { path: "a.txt" })).toContain("four");
    expect(await d.text("getCommitDetails")).toContain("initial commit");
    await d.data("getGitLog");
    await d.text("getDiffBetweenRefs", { base: "HEAD", head: "HEAD" });
    await d.text("getSymbolHistory", { path: "a.txt", startLine: 1, endLine: 2 });
    await d.text("getGitHotspots");
    await d.text("gitListBranches", { includeRemote: true });
    await d.data("gitStashList");
    expect(await ran()).toEqual([]);

    const all = await calls();
    const statusCall = all.find((argv) => argv.includes("status"));
    expect(statusCall).toEqual(
      expect.arrayContaining([
        "--no-pager",
        "core.fsmonitor=false",
        "core.hooksPath=/dev/null",
        "filter.evil.clean=",
        "filter.evil.smudge=",
        "filter.evil.required=false",
        "core.sshcommand=ssh",
      ]),
    );
    for (const argv of all.filter((a) => a.includes("diff") || a.includes("show")))
      expect(argv).toEqual(expect.arrayContaining(["--no-ext-diff", "--no-textconv"]));
    expect(all.find((argv) => argv.includes("blame"))).toContain("--no-textconv");
  });
});

describe("write tools", () => {
  it("fetch, pull and push refuse a repository naming its own upload-pack (git takes the first value, so no -c wins)", async () => {
    const { d } = await logged();
    for (const tool of ["gitFetch", "gitPull", "gitPush"]) {
      const refused = await d.failure(tool, tool === "gitPush" ? { branch: "topic" } : {});
      expect(refused).toMatchObject({ code: "git_failed", error: expect.stringContaining("remote.origin.uploadpack") });
    }
    // Local tools do not reach a transport, so they are not refused.
    expect(await d.text("gitListBranches")).toMatch(/^\* main /);
    fx.git(root, "config", "--unset", "remote.origin.uploadpack");
  });

  it("fetch overrides the repository's ssh command, and a password prompt fails instead of waiting", async () => {
    const { d, calls } = await logged();
    await d.data("gitFetch", { remote: "origin" });
    expect((await calls()).find((argv) => argv.includes("fetch"))).toEqual(
      expect.arrayContaining(["credential.helper=", "core.sshcommand=ssh"]),
    );
    const prompt = await d.failure("gitFetch", { remote: "web" });
    expect(prompt.error).toMatch(/terminal prompts disabled|could not read Username/);
    expect(prompt.suggestion).toMatch(/credential helper/);
    // Over ssh, the repository's sshCommand is replaced by plain ssh (which fails to connect here).
    await d.failure("gitFetch", { remote: "viassh" });
    expect(await ran()).toEqual([]);
  });

  it("refuse a file that uses the repository's filter (made required, never skipped) and run no hook", async () => {
    const { d } = await logged();
    const refused = await d.failure("gitAdd", { files: ["a.txt"] });
    expect(refused.error).toMatch(/evil/);
    await writeFile(join(root, "notes.md"), "notes\n");
    await d.data("gitCommit", { message: "notes", files: ["notes.md"] });
    expect(fx.git(root, "show", "--stat", "--format=%s", "HEAD")).toContain("notes.md");
    expect(await ran()).toEqual([]);
  });

  it("a pull that merges uses git's own merge, not the repository's merge driver", async () => {
    const theirs = join(base, "theirs");
    fx.git(base, "clone", "--quiet", join(base, "origin.git"), theirs);
    await writeFile(join(theirs, "merge.txt"), "1 theirs\n2\n3\n4\n5\n");
    await writeFile(join(theirs, ".gitattributes"), "");
    // Without the filter (a write refuses files that use it): the merge driver is what is tested here.
    await writeFile(join(root, ".gitattributes"), "*.txt diff=evil merge=evil\n");
    fx.git(theirs, "commit", "--quiet", "-am", "their edit");
    fx.git(theirs, "push", "--quiet");
    await writeFile(join(root, "merge.txt"), "1\n2\n3\n4\n5 mine\n");
    const { d } = await logged();
    await d.data("gitCommit", { message: "my edit", files: ["merge.txt"] });
    await rm(markers, { recursive: true });
    await mkdir(markers);
    await d.data("gitPull", { remote: "origin", branch: "main" });
    expect(fx.git(root, "show", "HEAD:merge.txt")).toBe("1 theirs\n2\n3\n4\n5 mine\n");
    expect(await ran()).toEqual([]);
  });

  it("continuing a stopped merge opens neither the repository's editor nor its sequence editor", async () => {
    fx.git(root, "switch", "--quiet", "-c", "other");
    await writeFile(join(root, "conf.md"), "other\n");
    fx.git(root, "add", "conf.md");
    fx.git(root, "commit", "--quiet", "-m", "other's conf");
    fx.git(root, "switch", "--quiet", "main");
    await writeFile(join(root, "conf.md"), "main\n");
    fx.git(root, "add", "conf.md");
    fx.git(root, "commit", "--quiet", "-m", "main's conf");
    expect(() => fx.git(root, "merge", "other")).toThrow();
    await writeFile(join(root, "conf.md"), "both\n");
    await rm(markers, { recursive: true });
    await mkdir(markers);
    const { d, calls } = await logged();
    expect(await d.data("gitContinueOperation", { files: ["conf.md"] })).toMatchObject({
      operation: "merge",
      state: "done",
      branch: "main",
    });
    expect((await calls()).find((argv) => argv.includes("--continue"))).toEqual(
      expect.arrayContaining(["core.editor=true", "merge", "--continue"]),
    );
    expect(await ran()).toEqual([]);
  });
});

describe("what cannot be overridden", () => {
  it("a repository setting core.gitProxy (first match wins over any -c) is refused with the way out", async () => {
    const dir = await fx.repo(join(base, "proxy"), { "a.txt": "a\n" });
    fx.git(dir, "config", "core.gitProxy", await marker("git-proxy"));
    const d = await dispatcher(dir, { toolsets: [gitToolset], runtime: fx.runtime() });
    const refused = await d.failure("gitFetch");
    expect(refused).toMatchObject({ code: "git_failed", error: expect.stringContaining("core.gitproxy") });
    expect(refused.suggestion).toMatch(/\.git\/config/);
    expect(await d.data("getGitStatus")).toMatchObject({ clean: true });
  });
});
