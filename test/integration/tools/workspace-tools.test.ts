// The workspace and bridge tools through the real dispatcher (test/helpers/tool-dispatch.ts), on a
// real temporary workspace: what a client gets back, shaped and capped as the bridge sends it.
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as v from "valibot";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { foundFiles } from "../../../src/prompts/tool-lines.ts";
import { defineTool } from "../../../src/tools/platform/define-tool.ts";
import { defineToolset } from "../../../src/tools/platform/toolset.ts";
import { TOOLSETS } from "../../../src/tools/toolsets.ts";
import { dispatcher, type Dispatcher } from "../../helpers/tool-dispatch.ts";
import { makeToolContext } from "../../helpers/tool-context.ts";
import { connectedExtension } from "../../helpers/fake-extension.ts";

let base: string;
let root: string;
let d: Dispatcher;

async function put(rel: string, content: string | Uint8Array, at = root): Promise<void> {
  const path = join(at, rel);
  await mkdir(join(path, ".."), { recursive: true });
  await writeFile(path, content);
}

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), "cib-tools-")));
  root = join(base, "my project");
  await mkdir(root);
  await put(
    "package.json",
    JSON.stringify({
      name: "demo",
      version: "1.2.3",
      type: "module",
      scripts: { build: "tsc", test: "vitest" },
      dependencies: { hono: "1" },
      devDependencies: { typescript: "5", vitest: "4" },
    }),
  );
  await put("pnpm-lock.yaml", "lockfileVersion: 9\n");
  await put("tsconfig.json", "{}");
  await put("Makefile", "all:\n");
  await put(".git/HEAD", "ref: refs/heads/main\n");
  await put(".env", "SECRET=1\n");
  await put("README.md", "# demo\n");
  await put("src/index.ts", "export const a = 1;\n");
  await put("src/util/strings.ts", "export {};\n");
  await put("src/util/strings.test.ts", "test\n");
  await put("src/app.tsx", "x\n");
  await put("node_modules/hono/index.js", "x");
  await put("dist/index.js", "x");
  await put("lines.txt", `${Array.from({ length: 100 }, (_, i) => `line ${i + 1}`).join("\n")}\n`);
  await put("crlf.txt", "one\r\ntwo\r\n");
  await put("tabbed.txt", "\tindented\nplain\n");
  await put("bin.dat", new Uint8Array([0x50, 0x4b, 0x00, 0x01]));
  await put("controls.dat", new Uint8Array(Array.from({ length: 4096 }, (_, i) => 1 + (i % 8))));
  await put("empty.txt", "");
  await put("wide.txt", "é".repeat(100));
  await mkdir(join(base, "outside"));
  await writeFile(join(base, "outside", "secret.txt"), "s");
  await symlink(join(base, "outside"), join(root, "escape"));
  d = await dispatcher(root);
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

describe("getWorkspaceFolders", () => {
  it("answers in Claude Code's shape with a percent-encoded file URI", async () => {
    expect(await d.data("getWorkspaceFolders")).toEqual({
      success: true,
      folders: [{ name: "my project", uri: `file://${root.replace(" ", "%20")}`, path: root }],
      rootPath: root,
    });
  });
});

describe("getProjectInfo", () => {
  it("reads package.json, the lock file and other markers", async () => {
    const out = await d.data("getProjectInfo");
    expect(out).toMatchObject({
      root,
      name: "demo",
      kinds: ["node", "typescript", "make"],
      git: true,
      node: {
        name: "demo",
        version: "1.2.3",
        type: "module",
        scripts: ["build", "test"],
        dependencies: 1,
        devDependencies: 2,
        packageManager: "pnpm",
      },
      warnings: [],
    });
    expect(out.markers).toEqual(["Makefile", "package.json", "pnpm-lock.yaml", "tsconfig.json"]);
  });

  it("reports a malformed package.json as a warning and detects other ecosystems", async () => {
    const dir = join(base, "poly");
    await put("package.json", "{ not json", dir);
    await put("Cargo.toml", '[package]\nname = "crab"\nversion = "0.1.0"\n', dir);
    await put("go.mod", "module example.com/gopher\n\ngo 1.22\n", dir);
    await put("pyproject.toml", '[project]\nname = "snake"\n', dir);
    await put("build.gradle", "", dir);
    await put("deno.json", "{}", dir);
    const out = await (await dispatcher(dir)).data<Record<string, unknown>>("getProjectInfo");
    expect(out.kinds).toEqual(["node", "deno", "rust", "go", "python", "java"]);
    expect(out).toMatchObject({
      name: "poly",
      git: false,
      rust: { crate: "crab" },
      go: { module: "example.com/gopher" },
      python: { name: "snake" },
      java: { buildTool: "gradle" },
    });
    expect(out.node).toBeUndefined();
    expect((out.warnings as string[])[0]).toMatch(/package\.json could not be parsed/);
  });
});

describe("getFileTree", () => {
  it("answers plain text: dirs first, sizes, symlinks marked and not followed, ignored and hidden skipped", async () => {
    const tree = await d.text("getFileTree");
    const lines = tree.split("\n");
    expect(lines[0]).toBe("./");
    expect(lines[1]).toBe("  src/");
    expect(lines).toContain("    util/");
    expect(lines).toContain("      strings.ts (11 B)");
    expect(lines).toContain("  escape@");
    expect(lines).toContain("  README.md (7 B)");
    expect(tree).not.toMatch(/node_modules|dist\/|\.git|\.env|secret/);
  });

  it("honours maxDepth, includeHidden, maxEntries and a sub-path", async () => {
    expect((await d.text("getFileTree", { maxDepth: 1 })).split("\n").filter((l) => l.startsWith("    "))).toEqual([]);
    const hidden = await d.text("getFileTree", { includeHidden: true, maxDepth: 1 });
    expect(hidden).toContain("  .env (9 B)");
    expect(hidden).not.toContain(".git");
    const cut = await d.text("getFileTree", { maxEntries: 2 });
    expect(cut.split("\n")).toHaveLength(4);
    expect(cut).toMatch(/\[truncated at 2 entries/);
    expect(await d.text("getFileTree", { path: "src" })).toBe(
      ["src/", "  util/", "    strings.test.ts (5 B)", "    strings.ts (11 B)", "  app.tsx (2 B)", "  index.ts (20 B)"].join("\n"),
    );
  });

  it("escapes names that would fake lines or reorder text", async () => {
    const dir = join(base, "names");
    await put("x\n  passwords.txt (9 B)", "", dir);
    await put("safe\u202Etxt.exe", "", dir);
    const tree = await (await dispatcher(dir)).text("getFileTree");
    expect(tree.split("\n")).toEqual(["./", "  safe\\u{202E}txt.exe (0 B)", "  x\\n  passwords.txt (9 B) (0 B)"]);
  });

  it("fails with a suggestion on files, escapes, outside paths and bad arguments", async () => {
    expect((await d.failure("getFileTree", { path: "README.md" })).code).toBe("not_a_directory");
    expect((await d.failure("getFileTree", { path: "escape" })).code).toBe("outside_workspace");
    expect((await d.failure("getFileTree", { path: "../" })).code).toBe("outside_workspace");
    expect((await d.failure("getFileTree", { maxDepth: 11 })).error).toBe(
      "Invalid arguments for getFileTree: `maxDepth` must be <=10, got 11",
    );
  });

  it("stops when its call is cancelled", async () => {
    const ctx = await makeToolContext(root);
    ctx.abort.abort();
    const walk = ctx.fs.walk(".", { maxDepth: 3, includeHidden: false, signal: ctx.signal });
    await expect(walk.next()).rejects.toMatchObject({ code: "cancelled" });
  });

  it("reports progress on big trees", async () => {
    const dir = join(base, "big");
    await mkdir(dir);
    await Promise.all(Array.from({ length: 600 }, (_, i) => writeFile(join(dir, `f${i}.txt`), "")));
    const big = await dispatcher(dir);
    const result = await big.call("getFileTree", { maxEntries: 5000 }, { progressToken: "t" });
    expect(result.content[0]?.text?.split("\n")).toHaveLength(601);
    expect(big.progress().map((p) => p.progress)).toEqual([250, 500]);
  });
});

describe("findFiles", () => {
  it("matches basenames at any depth when the pattern has no slash", async () => {
    expect(await d.text("findFiles", { pattern: "*.ts" })).toBe("src/index.ts\nsrc/util/strings.test.ts\nsrc/util/strings.ts");
  });

  it("matches paths with **, braces, classes and ?", async () => {
    const files = async (args: Record<string, unknown>) => foundFiles(await d.text("findFiles", args)).files;
    expect(await files({ pattern: "src/**/*.{ts,tsx}" })).toEqual([
      "src/app.tsx",
      "src/index.ts",
      "src/util/strings.test.ts",
      "src/util/strings.ts",
    ]);
    expect(await files({ pattern: "**/*.test.ts" })).toEqual(["src/util/strings.test.ts"]);
    expect(await files({ pattern: "util/*.ts", path: "src" })).toEqual(["src/util/strings.test.ts", "src/util/strings.ts"]);
    expect(await files({ pattern: "[Rr]EADME.?d" })).toEqual(["README.md"]);
  });

  it("skips ignored and hidden files unless asked, and truncates", async () => {
    const files = async (args: Record<string, unknown>) => foundFiles(await d.text("findFiles", args)).files;
    expect(await d.text("findFiles", { pattern: "*.js" })).toBe("No file matches *.js.");
    expect(await files({ pattern: "*.js" })).toEqual([]);
    expect(await files({ pattern: ".env" })).toEqual([]);
    expect(await files({ pattern: ".env", includeHidden: true })).toEqual([".env"]);
    const cut = await d.text("findFiles", { pattern: "*", maxResults: 2 });
    expect(foundFiles(cut)).toMatchObject({ truncated: true, files: [expect.any(String), expect.any(String)] });
    expect(cut).toMatch(/\n\n\[2 of \d+ files shown; maxResults \(now 2\) shows more\]$/);
  });

  it("rejects bad patterns and paths", async () => {
    expect((await d.failure("findFiles", { pattern: "{a,b" })).code).toBe("invalid_arguments");
    expect((await d.failure("findFiles", { pattern: "*", path: "escape" })).code).toBe("outside_workspace");
    expect((await d.failure("findFiles", { pattern: "*", path: "nope" })).code).toBe("file_not_found");
  });
});

describe("readFile", () => {
  it("answers numbered lines as plain text, the way Claude Code's Read shows them", async () => {
    expect(await d.text("readFile", { path: "src/index.ts" })).toBe("1\texport const a = 1;");
    expect(await d.text("readFile", { path: "tabbed.txt" })).toBe("1:\tindented\n2\tplain");
  });

  it("reads line ranges, absolute paths and file URIs", async () => {
    expect(await d.text("readFile", { path: join(root, "lines.txt"), startLine: 10, endLine: 12 })).toBe(
      "10\tline 10\n11\tline 11\n12\tline 12",
    );
    expect(await d.text("readFile", { path: `file://${root.replace(" ", "%20")}/lines.txt`, startLine: 99, endLine: 500 })).toBe(
      "99\tline 99\n100\tline 100",
    );
    expect(await d.text("readFile", { path: "empty.txt" })).toBe("[empty.txt is empty]");
  });

  it("says so when a file has CRLF line endings", async () => {
    expect(await d.text("readFile", { path: "crlf.txt" })).toBe("1\tone\n2\ttwo\n[the file has CRLF line endings]");
  });

  it("stops at maxBytes on a line boundary and says how to continue", async () => {
    expect(await d.text("readFile", { path: "lines.txt", maxBytes: 21 })).toBe(
      "1\tline 1\n2\tline 2\n3\tline 3\n[showing lines 1-3 of 100, maxBytes (21) reached; continue with startLine 4]",
    );
    expect(await d.text("readFile", { path: "wide.txt", maxBytes: 5 })).toBe(
      "1\téé\n[line 1 is longer than maxBytes (5) and was cut; raise maxBytes to see it whole]",
    );
  });

  it("reads 2,000 lines by default", async () => {
    await put("long.txt", Array.from({ length: 2500 }, (_, i) => `${i + 1}`).join("\n"));
    const text = await d.text("readFile", { path: "long.txt" });
    const lines = text.split("\n");
    expect(lines).toHaveLength(2001);
    expect(lines[1999]).toBe("2000\t2000");
    expect(lines[2000]).toBe("[showing lines 1-2000 of 2500, 2000-line default reached; continue with startLine 2001]");
  });

  it("fails clearly on directories, binaries, missing files, escapes and bad ranges", async () => {
    expect((await d.failure("readFile", { path: "src" })).suggestion).toMatch(/getFileTree/);
    expect((await d.failure("readFile", { path: "bin.dat" })).code).toBe("binary_file");
    expect((await d.failure("readFile", { path: "controls.dat" })).error).toMatch(/control characters/);
    expect((await d.failure("readFile", { path: "nope.ts" })).suggestion).toMatch(/findFiles/);
    expect((await d.failure("readFile", { path: "escape/secret.txt" })).code).toBe("outside_workspace");
    expect((await d.failure("readFile", { path: "../outside/secret.txt" })).code).toBe("outside_workspace");
    expect((await d.failure("readFile", { path: "src/index.ts\0" })).code).toBe("invalid_path");
    expect((await d.failure("readFile", { path: "lines.txt", startLine: 101 })).error).toMatch(/past the end .*100 lines/);
    expect((await d.failure("readFile", { path: "lines.txt", startLine: 5, endLine: 4 })).code).toBe("invalid_arguments");
  });

  it("answers argument mistakes in plain words", async () => {
    expect((await d.failure("readFile", { file_path: "a.ts" })).error).toBe(
      "Invalid arguments for readFile: unknown argument `file_path` (did you mean `path`?); missing required argument `path`; allowed: path (required), startLine, endLine, maxBytes",
    );
    expect((await d.failure("readFile", { path: "a", startLine: 0 })).error).toBe(
      "Invalid arguments for readFile: `startLine` must be >=1, got 0",
    );
    expect((await d.failure("readFile", { path: "a", startLine: "3" })).error).toBe(
      'Invalid arguments for readFile: `startLine` must be a number, got the string "3"',
    );
    expect((await d.failure("readFile", { path: "a", maxBytes: 1.5 })).error).toBe(
      "Invalid arguments for readFile: `maxBytes` must be a whole number, got 1.5",
    );
    expect((await d.failure("getWorkspaceFolders", { verbose: true })).error).toBe(
      "Invalid arguments for getWorkspaceFolders: unknown argument `verbose`; allowed: none (call it with {})",
    );
    expect((await d.failure("readFile", [])).error).toBe(
      "Invalid arguments for readFile: the arguments must be a JSON object, got an array",
    );
  });
});

describe("the result cap", () => {
  it("cuts text results and structured ones alike, keeping structured results valid", async () => {
    const dir = join(base, "capped");
    await Promise.all(Array.from({ length: 200 }, (_, i) => put(`file-number-${i}.txt`, `${"x".repeat(40)}\n`.repeat(50), dir)));
    const small = await dispatcher(dir, { maxResultChars: 1024 });
    const text = await small.text("readFile", { path: "file-number-0.txt" });
    expect(text.startsWith("1\tx")).toBe(true);
    expect(text.indexOf("\n[truncated: ")).toBe(1024);
    expect(text).toMatch(/\[truncated: \d+ of \d+ characters omitted by the bridge's result cap; narrow the request/);
    // findFiles keeps whole paths under the cap and says how many it kept.
    const listed = await small.text("findFiles", { pattern: "*.txt" });
    const found = foundFiles(listed);
    expect(listed.length).toBeLessThanOrEqual(1024);
    expect(found.files.length).toBeGreaterThan(10);
    expect(found.files.length).toBeLessThan(200);
    expect(found.files.every((f) => /^file-number-\d+\.txt$/.test(f))).toBe(true);
    expect(listed).toMatch(new RegExp(`\\[${found.files.length} of 200 files shown; narrow the pattern or path\\]$`));
  });
});

describe("getToolCapabilities", () => {
  const probeTool = (name: string, probes: string[]) =>
    defineTool({
      name,
      description: "Runs something.",
      searchHint: "x",
      input: v.strictObject({}),
      annotations: { readOnlyHint: true },
      requires: { probes },
      handler: async () => "ran",
    });
  const extensionTool = (name: string, headless: boolean) =>
    headless
      ? defineTool({
          name,
          description: "Does something.",
          searchHint: "x",
          input: v.strictObject({}),
          annotations: { readOnlyHint: true },
          handler: async () => "headless",
          viaExtension: async () => "extension",
        })
      : defineTool({
          name,
          description: "Does something.",
          searchHint: "x",
          input: v.strictObject({}),
          annotations: { readOnlyHint: true },
          viaExtension: async () => "extension",
        });
  const extra = defineToolset({
    name: "extra",
    purpose: "test tools with requirements",
    tools: [
      probeTool("grepSomewhere", ["rg-definitely-missing"]),
      probeTool("runSh", ["sh"]),
      extensionTool("getDiagnostics", false),
      extensionTool("openFile", true),
    ],
  });

  it("lists what cannot work and why, the executables found, and fallback tools", async () => {
    // The foundation's toolsets only: other toolsets add tools (and a real getDiagnostics) of their own.
    const toolsets = [...TOOLSETS.filter((t) => t.name === "workspace" || t.name === "bridge"), extra];
    const caps = await dispatcher(root, { toolsets });
    const out = await caps.data<Record<string, unknown>>("getToolCapabilities");
    expect(out.extensionConnected).toBe(false);
    expect(Object.keys(out.executables as object)).toEqual(["git", "rg", "gh", "rg-definitely-missing", "sh"]);
    expect((out.executables as Record<string, string | null>).sh).toMatch(/\/sh$/);
    expect((out.executables as Record<string, string | null>)["rg-definitely-missing"]).toBeNull();
    expect(out.available).toBe(toolsets.flatMap((t) => t.tools).length - 2);
    expect(out.unavailable).toEqual([
      {
        tools: ["grepSomewhere"],
        reason: "needs `rg-definitely-missing` on PATH",
        suggestion: "Install rg-definitely-missing, make sure it is on the bridge's PATH, and restart the bridge.",
      },
      { tools: ["getDiagnostics"], reason: "needs the VS Code extension", suggestion: expect.stringMatching(/VS Code/) },
    ]);
    // getWorkspaceFolders answers from VS Code when it is connected, and headless here.
    expect(out.fallback).toEqual(["getWorkspaceFolders", "openFile"]);
  });

  it("routes each call to the extension's handler when it is connected, else to the headless one", async () => {
    const off = await dispatcher(root, { toolsets: [extra] });
    expect(await off.text("openFile")).toBe("headless");
    expect((await off.failure("getDiagnostics")).code).toBe("extension_unavailable");
    expect((await off.failure("grepSomewhere")).code).toBe("probe_missing");
    expect(await off.text("runSh")).toBe("ran");
    const on = await dispatcher(root, { toolsets: [extra], extension: connectedExtension().client });
    expect(await on.text("openFile")).toBe("extension");
    expect(await on.text("getDiagnostics")).toBe("extension");
    expect((await on.data<Record<string, unknown>>("getToolCapabilities").catch(() => undefined)) ?? "not registered").toBe(
      "not registered",
    );
  });
});
