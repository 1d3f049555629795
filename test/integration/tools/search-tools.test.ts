// searchWorkspace with ripgrep and with the built-in engine, the same queries both ways on the same
// trees, byte for byte; and the answer's shape (per file, line: text, context, the cuts).
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createNodeRuntime } from "../../../runtime/node.ts";
import searchWorkspace from "../../../src/tools/search/search-workspace.ts";
import { writeIgnoreTree } from "../../fixtures/ignore-tree.ts";
import { dispatcher, type Dispatcher } from "../../helpers/tool-dispatch.ts";
import { makeToolContext, type TestToolContext } from "../../helpers/tool-context.ts";

let base: string;
let root: string;
let d: Dispatcher;
let withRg: TestToolContext;
let withoutRg: TestToolContext;

const runtime = createNodeRuntime();

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), "cib-search-")));
  root = join(base, "ws");
  await mkdir(root);
  await writeIgnoreTree(root);
  const files: Record<string, string> = {
    "code/a.ts": "import { x } from './b';\nconst value = x + 1; // needle\nexport function Needle() {}\n\n\nneedle at line 6\n",
    "code/b.ts": "export const x = 1;\r\nconst y = 'NEEDLE';\r\n",
    "code/deep/c.ts": `${"filler\n".repeat(30)}needle deep\n${"filler\n".repeat(3)}needle again\n`,
    "code/long.min.js": `${"x".repeat(2000)}needle${"y".repeat(2000)}\n`,
    "code/ünï.txt": "naïve needle café\n",
    "code/words.txt": "cat concat catalog\nthe cat sat\n",
    "code/special.txt": "a.b(c) [d] {e} $f ^g\n",
    "code/big-binary.dat": `${"needle before the binary part\n".repeat(3000)}\u0000binary\nneedle after\n`,
    // Binary data several of rg's read windows in, after lines of another length: where rg stops.
    "code/tail-binary.dat": `${"a needle in a line of thirty-seven\n".repeat(7000)}\u0000binary\nneedle after\n`,
  };
  for (const [rel, content] of Object.entries(files)) {
    await mkdir(join(root, rel, ".."), { recursive: true });
    await writeFile(join(root, rel), content);
  }
  d = await dispatcher(root);
  withRg = await makeToolContext(root, { executables: ["rg"] });
  withoutRg = await makeToolContext(root, {
    executables: ["rg"],
    runtime: { ...runtime, which: async (cmd) => (cmd === "rg" ? undefined : runtime.which(cmd)) },
  });
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

const search = async (ctx: TestToolContext, args: Record<string, unknown>) => {
  const input = {
    path: ".",
    include: [],
    exclude: [],
    includeHidden: false,
    includeIgnored: false,
    literal: false,
    caseSensitive: true,
    contextLines: 0,
    maxResults: 200,
    filesOnly: false,
    ...args,
  };
  return (await searchWorkspace.handlers.headless?.(input, ctx)) as string;
};

describe("searchWorkspace, with and without rg", () => {
  const queries: Record<string, unknown>[] = [
    { pattern: "needle" },
    { pattern: "needle", caseSensitive: false },
    { pattern: "NEEDLE" },
    { pattern: "Needle\\(\\)" },
    { pattern: "\\bcat\\b" },
    { pattern: "^needle" },
    { pattern: "needle$" },
    { pattern: "ne+dle \\w+" },
    { pattern: "(?i)naïve|CAFÉ" },
    { pattern: "[[:upper:]]{6}" },
    { pattern: "a.b(c)", literal: true },
    { pattern: "{e} $f", literal: true },
    { pattern: "needle", contextLines: 2 },
    { pattern: "filler|needle", contextLines: 1, maxResults: 20 },
    { pattern: "needle", maxResults: 3 },
    { pattern: "needle", path: "code" },
    { pattern: "needle", path: "src" },
    { pattern: "needle", include: ["*.ts"] },
    { pattern: "needle", include: ["code/**/*.ts"], exclude: ["deep"] },
    { pattern: "needle", include: ["*.log", "x.ts"] },
    { pattern: "needle", include: [".env", "*.txt"], includeHidden: false },
    { pattern: "needle", exclude: ["*.txt", "vendor"] },
    { pattern: "needle", includeHidden: true },
    { pattern: "needle", includeIgnored: true },
    { pattern: "needle", includeHidden: true, includeIgnored: true, include: ["**/*.txt"] },
    { pattern: "SECRET" },
    { pattern: "SECRET", includeHidden: true },
    { pattern: "nothing-matches-this" },
    { pattern: "" + "x*", path: "code", include: ["special.txt"] },
    { pattern: "needle", filesOnly: true },
    { pattern: "needle", filesOnly: true, maxResults: 2, contextLines: 3 },
  ];
  it.each(queries.map((q) => [JSON.stringify(q), q]))("%s gives the same answer", async (_name, query) => {
    const viaRg = await search(withRg, query as Record<string, unknown>);
    const builtIn = await search(withoutRg, query as Record<string, unknown>);
    expect(builtIn).toBe(viaRg);
  });
});

describe("searchWorkspace's answer", () => {
  it("groups by file in path order, line: text, and counts", async () => {
    expect(await d.text("searchWorkspace", { pattern: "needle", path: "code", include: ["*.ts"] })).toBe(
      [
        "code/a.ts",
        "2: const value = x + 1; // needle",
        "6: needle at line 6",
        "",
        "code/deep/c.ts",
        "31: needle deep",
        "35: needle again",
        "",
        "[4 matching lines in 2 files]",
      ].join("\n"),
    );
  });

  it("filesOnly lists each matching file with its count of matching lines, cut at maxResults files", async () => {
    expect(await d.text("searchWorkspace", { pattern: "needle", path: "code", include: ["*.ts"], filesOnly: true })).toBe(
      ["code/a.ts (2)", "code/deep/c.ts (2)", "", "[4 matching lines in 2 files]"].join("\n"),
    );
    const cut = await d.text("searchWorkspace", { pattern: "needle", path: "code", filesOnly: true, maxResults: 1 });
    expect(cut.split("\n")[0]).toBe("code/a.ts (2)");
    expect(cut).toMatch(/\[1 of \d+ files shown \(cut at maxResults, 1\)/);
  });

  it("shows context lines with '-' and separates runs with --; CRLF is not shown", async () => {
    expect(await d.text("searchWorkspace", { pattern: "needle", path: "code/deep", contextLines: 1 })).toBe(
      [
        "code/deep/c.ts",
        "30- filler",
        "31: needle deep",
        "32- filler",
        "--",
        "34- filler",
        "35: needle again",
        "",
        "[2 matching lines in 1 file]",
      ].join("\n"),
    );
    expect(await d.text("searchWorkspace", { pattern: "NEEDLE", path: "code" })).toBe(
      ["code/b.ts", "2: const y = 'NEEDLE';", "", "[1 matching line in 1 file]"].join("\n"),
    );
  });

  it("cuts long lines, and binary data as rg does", async () => {
    const out = await d.text("searchWorkspace", { pattern: "needle", include: ["*.js", "*.dat"], maxResults: 5000 });
    expect(out).toMatch(/^code\/big-binary\.dat\n1: needle before the binary part\n/);
    expect(out).not.toMatch(/needle after/);
    expect(out).toMatch(/code\/long\.min\.js\n1: x{400}… \[3606 more characters\]/);
  });

  it("says where it was cut: at maxResults, and at the result cap", async () => {
    expect(await d.text("searchWorkspace", { pattern: "needle", maxResults: 2 })).toMatch(
      /\n\n\[results cut at maxResults \(2 matching lines, in 1 file\): narrow the pattern, path or include globs, or raise maxResults, to see the rest\]$/,
    );
    const small = await dispatcher(root, { maxResultChars: 2000 });
    const cut = await small.text("searchWorkspace", { pattern: "needle", maxResults: 5000 });
    expect(cut.length).toBeLessThanOrEqual(2000);
    expect(cut).toMatch(
      /\[results cut at the bridge's result cap \(2000 characters\) after \d+ matching lines in \d+ files?: narrow the search to see the rest\]$/,
    );
  });

  it("answers no matches plainly, and refuses bad patterns and paths with a suggestion", async () => {
    expect(await d.text("searchWorkspace", { pattern: "zzz-not-here" })).toBe("[no matches]");
    const bad = await d.failure("searchWorkspace", { pattern: "(?=x)" });
    expect(bad.error).toMatch(/^Invalid regex at column 3 in "\(\?=x\)": lookaround is not supported/);
    expect(bad.suggestion).toMatch(/literal: true/);
    expect((await d.failure("searchWorkspace", { pattern: "x", path: "../" })).code).toBe("outside_workspace");
    expect((await d.failure("searchWorkspace", { pattern: "x", path: "code/a.ts" })).code).toBe("not_a_directory");
    expect((await d.failure("searchWorkspace", { pattern: "x", include: ["{a"] })).code).toBe("invalid_arguments");
  });

  it("streams progress on large trees", async () => {
    const dir = join(base, "many");
    await mkdir(dir);
    await Promise.all(Array.from({ length: 600 }, (_, i) => writeFile(join(dir, `f${i}.txt`), i % 100 === 0 ? "needle\n" : "hay\n")));
    const ctx = await makeToolContext(dir, {
      executables: ["rg"],
      runtime: { ...runtime, which: async (cmd) => (cmd === "rg" ? undefined : runtime.which(cmd)) },
    });
    expect(await search(ctx, { pattern: "needle" })).toMatch(/\[6 matching lines in 6 files\]$/);
    expect(ctx.progressCalls.filter((p) => /files searched/.test(p.message ?? "")).map((p) => p.progress)).toEqual([250, 500]);
  });
});
