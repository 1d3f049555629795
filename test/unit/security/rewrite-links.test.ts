// Formatters and fixers that rewrite files in place are refused when the trees they walk hold a
// symlink leading outside the workspace (biome format --write, eslint --fix, go fmt and cargo fmt
// write through one), wherever it sits: at the top, deep down, behind a link to another part of the
// workspace, in node_modules for the tools that walk it. In-process, on a real temporary tree,
// through the same checks runCommand runs. The controls: the same tools reading only, links that
// stay inside, dangling links, directories the tool never enters, and a tree over the bound.
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createNodeRuntime } from "../../../runtime/node.ts";
import { checkCommandLine, createCommandPolicy } from "../../../src/security/commands/command-policy.ts";
import { checkCommandReach } from "../../../src/security/commands/command-reach.ts";
import { checkRewriteLinks } from "../../../src/security/commands/rewrite-links.ts";

const runtime = createNodeRuntime();
let base: string;
/** Each case gets its own workspace: the link it is about, and nothing else leading out. */
let n = 0;

async function workspace(links: [string, string][]): Promise<string> {
  const ws = join(base, `ws${n++}`);
  for (const dir of ["src/deep/er", "lib", "node_modules/p", "target/debug", ".git/objects", "other"])
    await mkdir(join(ws, dir), { recursive: true });
  await writeFile(join(ws, "src", "a.js"), "const a = 1;\n");
  for (const [at, to] of links) await symlink(to.startsWith("/") ? to : join(ws, to), join(ws, at));
  return ws;
}

async function refusal(ws: string, line: string[], cwd = ws) {
  const place = { cwd, folders: [ws] };
  const command = line[0] ?? "";
  const args = line.slice(1);
  return (
    checkCommandLine(createCommandPolicy([]), { command, args, place }) ??
    (await checkCommandReach(
      { command, args, place },
      { fs: runtime.fs, resolveHost: runtime.resolveHost, allowPrivate: false, readText: async () => undefined },
    ))
  );
}

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), "cib-rewrite-")));
  await mkdir(join(base, "outside", "dir"), { recursive: true });
  await writeFile(join(base, "outside", "x.js"), "const   x =  1\n");
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

const REWRITES = [
  ["biome", "format", "--write", "."],
  ["biome", "check", "--write"],
  ["biome", "lint", "--fix"],
  ["biome", "check", "--apply-unsafe", "src"],
  ["eslint", "--fix", "."],
  ["eslint", "--fix"],
  ["go", "fmt", "./..."],
  ["go", "fix", "./..."],
  ["cargo", "fmt"],
  ["cargo", "fix", "--allow-dirty"],
  ["cargo", "clippy", "--fix"],
];

describe("in-place rewrites through a link to outside", () => {
  const outside = () => join(base, "outside");
  it.each([
    ["a link to a file outside, at the top", "x.js"],
    ["a link to a file outside, deep down", "src/deep/er/x.js"],
    ["a link to a directory outside", "src/deep/dir"],
  ])("%s is refused for every formatter and fixer", async (_label, at) => {
    const ws = await workspace([[at, join(outside(), at.endsWith(".js") ? "x.js" : "dir")]]);
    for (const line of REWRITES) {
      const why = await refusal(ws, line);
      expect(why?.why, line.join(" ")).toMatch(/rewrites the files it visits in place.*symbolic link to .*outside/);
    }
  });

  it("follows a link to another part of the workspace to the link out behind it", async () => {
    const ws = await workspace([
      ["src/to-lib", "lib"],
      ["lib/x.js", join(base, "outside", "x.js")],
    ]);
    expect((await refusal(ws, ["biome", "format", "--write", "src"]))?.why).toMatch(/lib\/x\.js is a symbolic link/);
  });

  it("walks node_modules and target only for the tools that enter them", async () => {
    const nm = await workspace([["node_modules/p/x.js", join(base, "outside", "x.js")]]);
    expect(await refusal(nm, ["eslint", "--fix", "."])).toBeUndefined();
    expect(await refusal(nm, ["biome", "format", "--write", "."])).toBeUndefined();
    expect((await refusal(nm, ["go", "fmt", "./..."]))?.why).toMatch(/symbolic link/);
    // Named on the command line, it is walked whatever the tool's defaults.
    expect((await refusal(nm, ["eslint", "--fix", "node_modules"]))?.why).toMatch(/symbolic link/);
    const target = await workspace([["target/debug/x.rs", join(base, "outside", "x.js")]]);
    expect(await refusal(target, ["cargo", "fmt"])).toBeUndefined();
    expect((await refusal(target, ["biome", "check", "--write"]))?.why).toMatch(/symbolic link/);
  });

  it("walks the whole folder for go and cargo, from a subdirectory too", async () => {
    const ws = await workspace([["other/x.js", join(base, "outside", "x.js")]]);
    expect((await refusal(ws, ["cargo", "fmt"], join(ws, "src")))?.why).toMatch(/other\/x\.js/);
    // eslint and biome work below the command's directory or on the paths they are given.
    expect(await refusal(ws, ["eslint", "--fix"], join(ws, "src"))).toBeUndefined();
    expect(await refusal(ws, ["biome", "format", "src", "--write"])).toBeUndefined();
    // A bare flag's value might be the path: the command's directory is walked as well.
    expect((await refusal(ws, ["biome", "format", "--write", "src", "--max-diagnostics", "1"]))?.why).toMatch(/other/);
  });
});

describe("what the rule leaves alone", () => {
  it("lets the same tools read, and rewrites where every link stays inside or leads nowhere", async () => {
    const ws = await workspace([
      ["x.js", join(base, "outside", "x.js")],
      ["src/inside.js", "src/a.js"],
    ]);
    for (const line of [
      ["biome", "format", "."],
      ["biome", "check"],
      ["eslint", "."],
      ["eslint", "--fix-dry-run", "."],
      ["go", "vet", "./..."],
      ["cargo", "clippy"],
      ["cargo", "build"],
    ])
      expect(await refusal(ws, line), line.join(" ")).toBeUndefined();
    const clean = await workspace([
      ["src/inside.js", "src/a.js"],
      ["src/to-lib", "lib"],
      ["src/dangling.js", "src/nowhere.js"],
      ["lib/loop", "src"],
    ]);
    for (const line of REWRITES) expect(await refusal(clean, line), line.join(" ")).toBeUndefined();
  });

  it("refuses a tree over the bound, with what to do", async () => {
    const ws = await workspace([]);
    const why = await checkRewriteLinks(
      { command: "biome", args: ["format", "--write"], rewrite: { scope: "arguments", skips: [] }, place: { cwd: ws, folders: [ws] } },
      { fs: runtime.fs, maxEntries: 5 },
    );
    expect(why?.why).toMatch(/more than 5 entries, too many to check/);
    expect(why?.suggestion).toMatch(/directories or files you mean/);
  });
});
