// The attack run's git routes, replayed through the tools on real repositories:
// Route A: a filter's clean command written into .git/config, .gitattributes naming it, gitAdd.
// Route B: .git/hooks/pre-commit.sample overwritten (it keeps its 0755 mode), renamed to pre-commit, gitCommit.
// Then runCommand's git (apply --unsafe-paths, a patch making a symlink read through by diff
// --no-index, the user's global config and credentials), and a workspace that is a subfolder of
// its repository (a switch, a stash and a stash pop reaching the files beside it).
import { execFileSync } from "node:child_process";
import { chmod, mkdir, mkdtemp, readdir, readFile, realpath, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commandsToolset } from "../../../src/tools/commands/index.ts";
import { editToolset } from "../../../src/tools/edit/index.ts";
import { filesToolset } from "../../../src/tools/files/index.ts";
import { gitToolset } from "../../../src/tools/git/index.ts";
import { gitFixture, type GitFixture } from "../../helpers/git-fixture.ts";
import { dispatcher } from "../../helpers/tool-dispatch.ts";

const SECRET = "fake-secret-9a7e";
let base: string;
let fx: GitFixture;
let markers: string;

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), "cib-git-red-")));
  fx = await gitFixture(base);
  markers = join(base, "markers");
  await mkdir(markers);
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

const toolsets = [filesToolset, editToolset, gitToolset, commandsToolset];
const runtime = () => fx.runtime({ CIB_FAKE_SECRET: SECRET });
const payload = (name: string) => `#!/bin/sh\nprintf '%s\\n' "$CIB_FAKE_SECRET" > ${JSON.stringify(join(markers, name))}\ncat\n`;

describe("Route A: a filter written into .git/config", () => {
  it("every write tool refuses .git/config, naming the path and the flag; gitAdd runs nothing", async () => {
    const root = await fx.repo(join(base, "route-a"), { "a.txt": "a\n" });
    const before = await readFile(join(root, ".git", "config"), "utf8");
    await mkdir(join(root, "sub"));
    const d = await dispatcher(root, { toolsets, runtime: runtime() });
    const evil = `${before}[filter "x"]\n\tclean = sh -c 'echo $CIB_FAKE_SECRET > ${join(markers, "route-a")}; cat'\n`;
    const attempts: [string, Record<string, unknown>][] = [
      ["createFile", { filePath: ".git/config", content: evil, overwrite: true }],
      ["createFile", { filePath: ".GIT/config", content: evil, overwrite: true }],
      ["createFile", { filePath: "sub/../.git/config", content: evil, overwrite: true }],
      ["editText", { filePath: ".git/config", edits: [{ type: "insert", line: 1, text: '[filter "x"]\n' }] }],
      ["replaceBlock", { filePath: ".git/config", oldContent: "[core]", newContent: `[filter "x"]\n\tclean = sh\n[core]` }],
      ["createFile", { filePath: ".git/info/attributes", content: "* filter=x\n", overwrite: true }],
      ["deleteFile", { filePath: ".git/config", useTrash: false }],
      ["createFile", { filePath: ".git/modules/x/config", content: evil }],
    ];
    for (const [tool, args] of attempts) {
      const failure = await d.failure(tool, args);
      expect(failure.code, `${tool} ${JSON.stringify(args).slice(0, 80)}`).toBe("permission_denied");
      expect(failure.error + failure.suggestion).toContain("--allow-git-dir-writes");
    }
    expect(await readFile(join(root, ".git", "config"), "utf8")).toBe(before);

    // The attributes half alone is harmless: gitAdd runs no filter the repository does not define.
    await d.data("createFile", { filePath: ".gitattributes", content: "*.txt filter=x\n" });
    await writeFile(join(root, "a.txt"), "changed\n");
    await d.data("gitAdd", { files: ["a.txt", ".gitattributes"] });
    expect(await readdir(markers)).toEqual([]);
  });

  it("the refusal is lifted only by --allow-git-dir-writes", async () => {
    const root = await fx.repo(join(base, "route-a-allowed"), { "a.txt": "a\n" });
    const { createWorkspace } = await import("../../../src/security/jail/workspace-jail.ts");
    const { createNodeRuntime } = await import("../../../runtime/node.ts");
    const fs = createNodeRuntime().fs;
    const target = ".git/description";
    const allowed = await createWorkspace(fs, { root, allowGitDirWrites: true });
    await expect(allowed.checkWrite(await allowed.resolve(target), target)).resolves.toBeUndefined();
    const jailed = await createWorkspace(fs, { root });
    await expect(jailed.checkWrite(await jailed.resolve(target), target)).rejects.toMatchObject({ code: "permission_denied" });
  });
});

describe("Route B: a sample hook overwritten and renamed", () => {
  it("the sample cannot be written or renamed into a hook; a hook that is there does not run, and gitCommit says so", async () => {
    const root = await fx.repo(join(base, "route-b"), { "a.txt": "a\n" });
    const d = await dispatcher(root, { toolsets, runtime: runtime() });
    const sample = ".git/hooks/pre-commit.sample";
    for (const [tool, args] of [
      ["createFile", { filePath: sample, content: payload("route-b"), overwrite: true }],
      ["editText", { filePath: sample, edits: [{ type: "insert", line: 1, text: payload("route-b") }] }],
      ["renameFile", { oldPath: sample, newPath: ".git/hooks/pre-commit" }],
      ["renameFile", { oldPath: "a.txt", newPath: ".git/hooks/pre-commit" }],
      ["renameFile", { oldPath: ".git/hooks", newPath: "hooks-moved" }],
      ["createFile", { filePath: ".git/hooks/post-checkout", content: payload("route-b2") }],
    ] as [string, Record<string, unknown>][]) {
      const failure = await d.failure(tool, args);
      expect(failure.code, `${tool} ${JSON.stringify(args).slice(0, 80)}`).toBe("permission_denied");
      expect(failure.error + failure.suggestion).toContain("--allow-git-dir-writes");
    }
    expect(await stat(join(root, ".git", "hooks", "pre-commit")).catch(() => undefined)).toBeUndefined();

    // Suppose the hook got there another way (the user's own lint hook, or an archive): not run.
    await writeFile(join(root, ".git", "hooks", "pre-commit"), payload("route-b3"));
    await chmod(join(root, ".git", "hooks", "pre-commit"), 0o755);
    await d.data("createFile", { filePath: "b.txt", content: "b\n" });
    const commit = await d.data("gitCommit", { message: "b", files: ["b.txt"] });
    expect(commit.hooksNotRun).toEqual(["pre-commit"]);
    expect(await readdir(markers)).toEqual([]);
  });

  it("a repository's hooks directory named in its config (husky's .husky) is refused too", async () => {
    const root = await fx.repo(join(base, "route-b-husky"), { "a.txt": "a\n" });
    fx.git(root, "config", "core.hooksPath", ".husky");
    const d = await dispatcher(root, { toolsets, runtime: runtime() });
    const failure = await d.failure("createFile", { filePath: ".husky/pre-commit", content: payload("husky") });
    expect(failure.code).toBe("permission_denied");
  });
});

describe("runCommand's git", () => {
  it("refuses apply --unsafe-paths, an escaping --directory, the user's config and credentials; reads nothing through a symlink", async () => {
    const root = await fx.repo(join(base, "run-git"), { "a.txt": "a\n" });
    const outside = join(base, "outside-secret.txt");
    await writeFile(outside, `${SECRET}\n`);
    await writeFile(
      join(fx.env.HOME ?? "", ".gitconfig"),
      `${await readFile(join(fx.env.HOME ?? "", ".gitconfig"), "utf8")}[credential]\n\thelper = store\n[http]\n\textraHeader = Authorization: Bearer ${SECRET}\n`,
    );
    const d = await dispatcher(root, { toolsets, runtime: runtime() });
    const patch = `diff --git a/x b/x\nnew file mode 100644\n--- /dev/null\n+++ b/x\n@@ -0,0 +1 @@\n+pwned\n`;
    await writeFile(join(root, "p.patch"), patch);
    const refusals: string[][] = [
      ["apply", "--unsafe-paths", "--directory=/tmp", "p.patch"],
      ["apply", "--directory=../..", "p.patch"],
      ["apply", "--directory", "/tmp", "p.patch"],
      ["config", "--global", "--list"],
      ["config", "--system", "--list"],
      ["config", "--list"],
      ["config", "--get", "http.extraheader"],
      ["config", "--local", "--includes", "--list"],
      ["credential", "fill"],
      ["credential-store", "get"],
      ["var", "-l"],
      ["help", "log"],
      ["push", "origin", "main"],
      ["init", "--template=/tmp", "x"],
      ["--paginate", "log"],
      ["log", "--help"],
    ];
    for (const args of refusals) {
      const failure = await d.failure("runCommand", { command: "git", args });
      expect(failure.code, args.join(" ")).toBe("command_refused");
    }
    // A symlink in the workspace to a file outside: diff --no-index does not read through it.
    execFileSync("ln", ["-s", outside, join(root, "link")]);
    const through = await d.call("runCommand", { command: "git", args: ["diff", "--no-index", "/dev/null", "link"] });
    expect(JSON.stringify(through)).not.toContain(SECRET);
    const local = await d.call("runCommand", { command: "git", args: ["config", "--local", "--list"] });
    expect(JSON.stringify(local)).not.toContain(SECRET);
    expect(await readdir(markers)).toEqual([]);
  });
});

describe("a workspace that is a subfolder of its repository", () => {
  it("switching refuses when files beside the workspace would change; stash takes only the workspace's changes; pop refuses a stash reaching outside", async () => {
    const top = await fx.repo(join(base, "mono"), { "packages/app/app.txt": "app\n", "packages/lib/lib.txt": "lib\n" });
    fx.git(top, "switch", "--quiet", "-c", "other");
    await writeFile(join(top, "packages", "lib", "lib.txt"), "lib on other\n");
    fx.git(top, "commit", "--quiet", "-am", "lib changes");
    fx.git(top, "switch", "--quiet", "-c", "app-only", "main");
    await writeFile(join(top, "packages", "app", "app.txt"), "app on app-only\n");
    fx.git(top, "commit", "--quiet", "-am", "app changes");
    fx.git(top, "switch", "--quiet", "main");
    const root = join(top, "packages", "app");
    const d = await dispatcher(root, { toolsets, runtime: runtime() });

    const refused = await d.failure("gitCheckout", { branch: "other" });
    expect(refused.code).toBe("outside_workspace");
    expect(refused.error).toContain("packages/lib/lib.txt");
    expect(fx.git(top, "branch", "--show-current").trim()).toBe("main");
    expect(await d.data("gitCheckout", { branch: "app-only" })).toMatchObject({ branch: "app-only" });
    await d.data("gitCheckout", { branch: "main" });

    // An edit beside the workspace stays where it is when the workspace's edits are stashed.
    await writeFile(join(top, "packages", "lib", "lib.txt"), "outside edit\n");
    await writeFile(join(root, "app.txt"), "inside edit\n");
    await d.data("gitStash");
    expect(await readFile(join(top, "packages", "lib", "lib.txt"), "utf8")).toBe("outside edit\n");
    expect(await readFile(join(root, "app.txt"), "utf8")).toBe("app\n");
    expect(fx.git(top, "stash", "show", "--name-only", "stash@{0}").trim()).toBe("packages/app/app.txt");
    await d.data("gitStashPop");
    expect(await readFile(join(root, "app.txt"), "utf8")).toBe("inside edit\n");

    // A stash made outside the bridge that holds files beside the workspace is not popped.
    fx.git(top, "stash", "push", "--quiet");
    const pop = await d.failure("gitStashPop");
    expect(pop.code).toBe("outside_workspace");
    expect(pop.error).toContain("packages/lib/lib.txt");
    expect(await readFile(join(top, "packages", "lib", "lib.txt"), "utf8")).toBe("lib\n");
  });
});
