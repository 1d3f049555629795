// The jail's refusal to write where git takes code to run from (src/security/jail/git-places.ts),
// through ctx.fs's every write path: a plain write, a commit of several files (edits, language
// servers), a directory, a delete, both ends of a rename. The repository here is made of plain
// files (no git runs in a unit test): a .git directory, a bare repository, a .git file, a config
// naming a hooks directory and an include.
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createNodeRuntime } from "../../../runtime/node.ts";
import { parseGitConfig } from "../../../src/security/jail/git-config-file.ts";
import { createWorkspace } from "../../../src/security/jail/workspace-jail.ts";
import { createWorkspaceFs, type WorkspaceFs } from "../../../src/workspace/workspace-fs.ts";

let base: string;
let root: string;
let fs: WorkspaceFs;
let open: WorkspaceFs;
const runtime = createNodeRuntime();

async function file(path: string, content = ""): Promise<void> {
  await mkdir(join(root, path, ".."), { recursive: true });
  await writeFile(join(root, path), content);
}

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), "cib-git-places-")));
  root = join(base, "ws");
  await file(".git/HEAD", "ref: refs/heads/main\n");
  await mkdir(join(root, ".git/objects"), { recursive: true });
  await mkdir(join(root, ".git/refs"), { recursive: true });
  await file(
    ".git/config",
    '[core]\n\tbare = false\n\thooksPath = ".husky/_" ; husky\n[include]\n\tpath = ../team.gitconfig\n[includeIf "gitdir:~/x/"]\n\tpath = ../maybe.gitconfig\n',
  );
  await file(".git/hooks/pre-commit.sample", "#!/bin/sh\n");
  await file("team.gitconfig", "[include]\n\tpath = nested.gitconfig\n");
  await file("nested.gitconfig", "[user]\n\tname = x\n");
  await file(".husky/_/h", "");
  await file(".husky/pre-commit", "npm test\n");
  await file("vendor/bare.git/HEAD", "ref: refs/heads/main\n");
  await mkdir(join(root, "vendor/bare.git/objects"), { recursive: true });
  await mkdir(join(root, "vendor/bare.git/refs"), { recursive: true });
  await mkdir(join(root, "almost/objects"), { recursive: true });
  await mkdir(join(root, "almost/refs"), { recursive: true });
  await file("src/a.ts", "a\n");
  const workspace = await createWorkspace(runtime.fs, { root });
  fs = createWorkspaceFs(runtime.fs, workspace);
  open = createWorkspaceFs(runtime.fs, await createWorkspace(runtime.fs, { root, allowGitDirWrites: true }));
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

const refused = { code: "permission_denied", message: expect.stringMatching(/git runs code from there/) };

describe("writes where git takes code from", () => {
  it.each([
    ".git/config",
    ".git/hooks/pre-commit",
    ".git/info/attributes",
    ".git/modules/lib/config",
    ".git/worktrees/w/gitdir",
    ".GIT/config",
    ".git./config",
    "sub/.git",
    "vendor/bare.git/hooks/pre-receive",
    "vendor/bare.git/config",
    "almost/HEAD",
    ".husky/_/pre-commit",
    "team.gitconfig",
    "nested.gitconfig",
    "maybe.gitconfig",
  ])("refuses a write to %s, naming the path and the flag", async (path) => {
    const err = await fs.writeFile(path, "x").catch((e: unknown) => e);
    expect(err).toMatchObject({ ...refused, message: expect.stringContaining(path) });
    expect(err).toMatchObject({ suggestion: expect.stringContaining("--allow-git-dir-writes") });
  });

  it("refuses them on every write path: commit, directory, delete, both ends of a rename", async () => {
    const config = await fs.resolve(".git/config");
    const original = await readFile(join(root, ".git/config"));
    await expect(
      fs.commit([{ label: ".git/config", path: config, data: new TextEncoder().encode("[x]"), expect: "absent" }]),
    ).rejects.toMatchObject(refused);
    await expect(fs.makeDirectory(".git/hooks/new", { parents: true })).rejects.toMatchObject(refused);
    await expect(
      fs.makeDirectory("almost2/objects", { parents: true }).then(() => fs.makeDirectory("almost2/refs", { parents: false })),
    ).resolves.toBeDefined();
    await writeFile(join(root, "almost2/HEAD"), "ref: refs/heads/main\n");
    await rm(join(root, "almost2/refs"), { recursive: true });
    // The last marker of a git directory, made as a directory, is refused too.
    await expect(fs.makeDirectory("almost2/refs", { parents: false })).rejects.toMatchObject(refused);
    await expect(fs.remove(".git/hooks/pre-commit.sample", { recursive: false })).rejects.toMatchObject(refused);
    await expect(fs.rename(".git/hooks/pre-commit.sample", ".git/hooks/pre-commit", { overwrite: false })).rejects.toMatchObject(refused);
    await expect(fs.rename("src/a.ts", ".husky/pre-commit", { overwrite: true })).rejects.toMatchObject(refused);
    await expect(fs.rename(".husky/pre-commit", "src/moved", { overwrite: false })).rejects.toMatchObject(refused);
    expect(await readFile(join(root, ".git/config"))).toEqual(original);
    expect(await readFile(join(root, ".husky/pre-commit"), "utf8")).toBe("npm test\n");
  });

  it("leaves the rest of the workspace writable, .gitattributes and .gitignore included", async () => {
    for (const path of [".gitattributes", ".gitignore", ".gitmodules", "src/git/x.ts", "docs/.github/y.md", "almost/notes.txt"]) {
      await fs.makeDirectory(path.split("/").slice(0, -1).join("/") || ".", { parents: true });
      await expect(fs.writeFile(path, "ok")).resolves.toBeDefined();
    }
  });

  it("with --allow-git-dir-writes, writes there as anywhere", async () => {
    await open.writeFile(".git/hooks/post-commit.sample", "#!/bin/sh\n");
    await open.writeFile(".husky/pre-push", "x\n");
    expect(await readFile(join(root, ".git/hooks/post-commit.sample"), "utf8")).toBe("#!/bin/sh\n");
  });
});

describe("the config reader", () => {
  it("reads sections, subsections, quotes, escapes, comments and continuations as git does", () => {
    const text = [
      "# comment",
      "[core]",
      '\thooksPath = "a b/\\"c\\"" ; trailing',
      "\tbare",
      '[includeIf "gitdir:/x/"]',
      "\tpath = one\\",
      "two",
      "[Remote.Origin]",
      "\tURL = u # c",
      '[filter "A\\"B"] clean = x',
    ].join("\n");
    expect(parseGitConfig(text)).toEqual([
      { section: "core", subsection: "", name: "hookspath", value: 'a b/"c"' },
      { section: "core", subsection: "", name: "bare", value: "true" },
      { section: "includeif", subsection: "gitdir:/x/", name: "path", value: "onetwo" },
      { section: "remote", subsection: "origin", name: "url", value: "u" },
      { section: "filter", subsection: 'A"B', name: "clean", value: "x" },
    ]);
  });
});
