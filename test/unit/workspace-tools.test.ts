import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { toJsonSchema } from "@valibot/to-json-schema";
import * as v from "valibot";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ToolError, type ToolErrorCode } from "../../src/errors.ts";
import { bridgeTools } from "../../src/tools/bridge/index.ts";
import type { Tool } from "../../src/tools/define-tool.ts";
import { workspaceTools } from "../../src/tools/workspace/index.ts";
import { compileGlob } from "../../src/tools/workspace/glob.ts";
import { sliceLines } from "../../src/tools/workspace/line-slice.ts";
import { catalogOf, makeToolContext, type TestToolContext } from "../helpers/tool-context.ts";

let base: string;
let root: string;
let ctx: TestToolContext;

const tool = (name: string): Tool => {
  const found = [...workspaceTools, ...bridgeTools].find((t) => t.name === name);
  if (!found) throw new Error(`no tool ${name}`);
  return found;
};

/** What the dispatcher does: validate input, call, and check structured output. */
async function call<T = Record<string, unknown>>(name: string, args: unknown, context: TestToolContext = ctx): Promise<T> {
  const t = tool(name);
  const result = await t.handler(v.parse(t.input, args), context);
  if (t.output) v.parse(t.output, result);
  return result as T;
}

async function failsWith(name: string, args: unknown, code: ToolErrorCode, context: TestToolContext = ctx): Promise<ToolError> {
  const err = await call(name, args, context).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ToolError);
  expect((err as ToolError).code).toBe(code);
  return err as ToolError;
}

async function put(rel: string, content: string | Uint8Array): Promise<void> {
  const path = join(root, rel);
  await mkdir(join(path, ".."), { recursive: true });
  await writeFile(path, content);
}

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), "cib-tools-")));
  root = join(base, "my project");
  await mkdir(root);
  await put("package.json", JSON.stringify({ name: "demo", version: "1.2.3", type: "module", scripts: { build: "tsc", test: "vitest" }, dependencies: { hono: "1" }, devDependencies: { typescript: "5", vitest: "4" } }));
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
  await put("lines.txt", Array.from({ length: 100 }, (_, i) => `line ${i + 1}`).join("\n") + "\n");
  await put("bin.dat", new Uint8Array([0x50, 0x4b, 0x00, 0x01]));
  await put("empty.txt", "");
  await put("wide.txt", "é".repeat(100));
  await mkdir(join(base, "outside"));
  await writeFile(join(base, "outside", "secret.txt"), "s");
  await symlink(join(base, "outside"), join(root, "escape"));
  ctx = await makeToolContext(root);
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

describe("tool definitions", () => {
  it("are read-only, described briefly, and convert to JSON Schema with field descriptions", () => {
    for (const t of [...workspaceTools, ...bridgeTools]) {
      expect(t.annotations.readOnlyHint, t.name).toBe(true);
      expect(t.description.length, t.name).toBeLessThanOrEqual(200);
      const input = toJsonSchema(t.input, { errorMode: "throw" });
      expect(input.type, t.name).toBe("object");
      for (const prop of Object.values(input.properties ?? {})) expect(prop, t.name).toHaveProperty("description");
      if (t.output) expect(toJsonSchema(t.output, { errorMode: "throw" }).type).toBe("object");
    }
    expect(workspaceTools.map((t) => t.name)).toEqual(["getWorkspaceFolders", "getProjectInfo", "getFileTree", "findFiles", "readFile"]);
  });
});

describe("getWorkspaceFolders", () => {
  it("answers in Claude Code's shape with a percent-encoded file URI", async () => {
    const out = await call("getWorkspaceFolders", {});
    expect(out).toEqual({ success: true, folders: [{ name: "my project", uri: `file://${root.replace(" ", "%20")}`, path: root }], rootPath: root });
  });
});

describe("getProjectInfo", () => {
  it("reads package.json, the lock file and other markers", async () => {
    const out = await call("getProjectInfo", {});
    expect(out).toMatchObject({
      root,
      name: "demo",
      kinds: ["node", "typescript", "make"],
      git: true,
      node: { name: "demo", version: "1.2.3", type: "module", scripts: ["build", "test"], dependencies: 1, devDependencies: 2, packageManager: "pnpm" },
      warnings: [],
    });
    expect(out.markers).toEqual(["Makefile", "package.json", "pnpm-lock.yaml", "tsconfig.json"]);
  });

  it("reports a malformed package.json as a warning and detects other ecosystems", async () => {
    const dir = join(base, "poly");
    await mkdir(dir);
    await writeFile(join(dir, "package.json"), "{ not json");
    await writeFile(join(dir, "Cargo.toml"), '[package]\nname = "crab"\nversion = "0.1.0"\n');
    await writeFile(join(dir, "go.mod"), "module example.com/gopher\n\ngo 1.22\n");
    await writeFile(join(dir, "pyproject.toml"), '[project]\nname = "snake"\n');
    await writeFile(join(dir, "build.gradle"), "");
    await writeFile(join(dir, "deno.json"), "{}");
    const out = await call<Record<string, unknown>>("getProjectInfo", {}, await makeToolContext(dir));
    expect(out.kinds).toEqual(["node", "deno", "rust", "go", "python", "java"]);
    expect(out).toMatchObject({ name: "poly", git: false, rust: { crate: "crab" }, go: { module: "example.com/gopher" }, python: { name: "snake" }, java: { buildTool: "gradle" } });
    expect(out.node).toBeUndefined();
    expect((out.warnings as string[])[0]).toMatch(/package\.json could not be parsed/);
  });
});

describe("getFileTree", () => {
  it("lists dirs first, skips ignored and hidden entries, marks symlinks without following them", async () => {
    const out = await call<{ root: string; tree: string; entries: { path: string; kind: string; size?: number }[]; truncated: boolean }>("getFileTree", {});
    const paths = out.entries.map((e) => e.path);
    expect(out.root).toBe(".");
    expect(out.truncated).toBe(false);
    expect(paths).toContain("src/util/strings.ts");
    expect(paths.some((p) => p.startsWith("node_modules") || p.startsWith("dist") || p.startsWith(".git") || p === ".env")).toBe(false);
    expect(out.entries.find((e) => e.path === "escape")).toEqual({ path: "escape", kind: "symlink" });
    expect(paths.some((p) => p.startsWith("escape/"))).toBe(false);
    expect(out.entries.find((e) => e.path === "README.md")?.size).toBe(7);
    const lines = out.tree.split("\n");
    expect(lines[0]).toBe("./");
    expect(lines[1]).toBe("  src/");
    expect(lines).toContain("    util/");
    expect(lines).toContain("      strings.ts (11 B)");
    expect(lines).toContain("  escape@");
  });

  it("honours maxDepth, includeHidden, maxEntries and a sub-path", async () => {
    const shallow = await call<{ entries: { path: string }[] }>("getFileTree", { maxDepth: 1 });
    expect(shallow.entries.every((e) => !e.path.includes("/"))).toBe(true);
    const hidden = await call<{ entries: { path: string }[] }>("getFileTree", { includeHidden: true, maxDepth: 1 });
    expect(hidden.entries.map((e) => e.path)).toContain(".env");
    expect(hidden.entries.map((e) => e.path)).not.toContain(".git");
    const cut = await call<{ entries: unknown[]; truncated: boolean; tree: string }>("getFileTree", { maxEntries: 2 });
    expect(cut.entries).toHaveLength(2);
    expect(cut.truncated).toBe(true);
    expect(cut.tree).toMatch(/truncated/);
    const sub = await call<{ root: string; entries: { path: string }[]; tree: string }>("getFileTree", { path: "src" });
    expect(sub.root).toBe("src");
    expect(sub.entries.map((e) => e.path)).toEqual(["src/util", "src/app.tsx", "src/index.ts", "src/util/strings.test.ts", "src/util/strings.ts"]);
    expect(sub.tree.split("\n")[0]).toBe("src/");
  });

  it("rejects bad input, files, paths outside, and stops when cancelled", async () => {
    expect(() => v.parse(tool("getFileTree").input, { maxDepth: 11 })).toThrow();
    expect(() => v.parse(tool("getFileTree").input, { bogus: 1 })).toThrow();
    await failsWith("getFileTree", { path: "README.md" }, "not_a_directory");
    await failsWith("getFileTree", { path: "escape" }, "outside_workspace");
    await failsWith("getFileTree", { path: "../" }, "outside_workspace");
    const aborted = await makeToolContext(root);
    aborted.abort.abort();
    await failsWith("getFileTree", {}, "cancelled", aborted);
  });

  it("reports progress on big trees", async () => {
    const dir = join(base, "big");
    await mkdir(dir);
    await Promise.all(Array.from({ length: 600 }, (_, i) => writeFile(join(dir, `f${i}.txt`), "")));
    const big = await makeToolContext(dir);
    const out = await call<{ entries: unknown[] }>("getFileTree", { maxEntries: 5000 }, big);
    expect(out.entries).toHaveLength(600);
    expect(big.progressCalls.map((p) => p.progress)).toEqual([250, 500]);
  });
});

describe("findFiles", () => {
  it("matches basenames at any depth when the pattern has no slash", async () => {
    const out = await call<{ files: string[]; truncated: boolean }>("findFiles", { pattern: "*.ts" });
    expect(out).toEqual({ files: ["src/index.ts", "src/util/strings.test.ts", "src/util/strings.ts"], truncated: false });
  });

  it("matches paths with **, braces, classes and ?", async () => {
    expect((await call<{ files: string[] }>("findFiles", { pattern: "src/**/*.{ts,tsx}" })).files).toEqual(["src/app.tsx", "src/index.ts", "src/util/strings.test.ts", "src/util/strings.ts"]);
    expect((await call<{ files: string[] }>("findFiles", { pattern: "**/*.test.ts" })).files).toEqual(["src/util/strings.test.ts"]);
    expect((await call<{ files: string[] }>("findFiles", { pattern: "util/*.ts", path: "src" })).files).toEqual(["src/util/strings.test.ts", "src/util/strings.ts"]);
    expect((await call<{ files: string[] }>("findFiles", { pattern: "[Rr]EADME.?d" })).files).toEqual(["README.md"]);
  });

  it("skips ignored and hidden files unless asked, and truncates", async () => {
    expect((await call<{ files: string[] }>("findFiles", { pattern: "*.js" })).files).toEqual([]);
    expect((await call<{ files: string[] }>("findFiles", { pattern: ".env" })).files).toEqual([]);
    expect((await call<{ files: string[] }>("findFiles", { pattern: ".env", includeHidden: true })).files).toEqual([".env"]);
    const cut = await call<{ files: string[]; truncated: boolean }>("findFiles", { pattern: "*", maxResults: 2 });
    expect(cut.files).toHaveLength(2);
    expect(cut.truncated).toBe(true);
  });

  it("rejects bad patterns and paths", async () => {
    await failsWith("findFiles", { pattern: "{a,b" }, "invalid_arguments");
    await failsWith("findFiles", { pattern: "*", path: "escape" }, "outside_workspace");
    await failsWith("findFiles", { pattern: "*", path: "nope" }, "file_not_found");
  });
});

describe("glob", () => {
  it("translates the supported syntax", () => {
    expect(compileGlob("a/**/b").matches("a/b")).toBe(true);
    expect(compileGlob("a/**/b").matches("a/x/y/b")).toBe(true);
    expect(compileGlob("a/*").matches("a/x/y")).toBe(false);
    expect(compileGlob("[!a]*.md").matches("b.md")).toBe(true);
    expect(compileGlob("[!a]*.md").matches("a.md")).toBe(false);
    expect(compileGlob("{x,{y,z}}.c").matches("deep/z.c")).toBe(true);
    expect(compileGlob("a\\*b").matches("a*b")).toBe(true);
    expect(compileGlob("a.b").matches("axb")).toBe(false);
  });
});

describe("sliceLines", () => {
  const bytes = (text: string) => new TextEncoder().encode(text);
  it("counts a last line without a newline and keeps CRLF as it is", () => {
    const data = bytes("a\r\nb\r\nc");
    expect(sliceLines(data, { startLine: 3, endLine: undefined, maxBytes: 100 })).toMatchObject({ start: 6, end: 7, endLine: 3, totalLines: 3, truncated: false });
    expect(sliceLines(data, { startLine: 1, endLine: 2, maxBytes: 100 })).toMatchObject({ start: 0, end: 6, endLine: 2 });
    expect(sliceLines(data, { startLine: 1, endLine: undefined, maxBytes: 3 })).toMatchObject({ end: 3, endLine: 1, truncated: true, partialLine: false });
  });
});

describe("readFile", () => {
  it("reads a whole file with its metadata", async () => {
    const out = await call("readFile", { path: "src/index.ts" });
    expect(out).toEqual({ path: "src/index.ts", content: "export const a = 1;\n", startLine: 1, endLine: 1, totalLines: 1, truncated: false, size: 20 });
  });

  it("reads line ranges, absolute paths and file URIs", async () => {
    const out = await call("readFile", { path: join(root, "lines.txt"), startLine: 10, endLine: 12 });
    expect(out).toMatchObject({ path: "lines.txt", content: "line 10\nline 11\nline 12\n", startLine: 10, endLine: 12, totalLines: 100, truncated: false });
    const tail = await call("readFile", { path: `file://${root.replace(" ", "%20")}/lines.txt`, startLine: 99, endLine: 500 });
    expect(tail).toMatchObject({ content: "line 99\nline 100\n", endLine: 100 });
    expect(await call("readFile", { path: "empty.txt" })).toMatchObject({ content: "", startLine: 1, endLine: 0, totalLines: 0, truncated: false });
  });

  it("truncates at maxBytes on a line boundary and says how to continue", async () => {
    const out = await call<Record<string, unknown>>("readFile", { path: "lines.txt", maxBytes: 21 });
    expect(out).toMatchObject({ content: "line 1\nline 2\nline 3\n", startLine: 1, endLine: 3, truncated: true, totalLines: 100 });
    expect(out.note).toMatch(/startLine 4/);
    const wide = await call<Record<string, unknown>>("readFile", { path: "wide.txt", maxBytes: 5 });
    expect(wide).toMatchObject({ content: "éé", endLine: 1, truncated: true });
    expect(wide.note).toMatch(/longer than maxBytes/);
  });

  it("fails clearly on directories, binaries, missing files, escapes and bad ranges", async () => {
    expect((await failsWith("readFile", { path: "src" }, "not_a_file")).suggestion).toMatch(/getFileTree/);
    await failsWith("readFile", { path: "bin.dat" }, "binary_file");
    expect((await failsWith("readFile", { path: "nope.ts" }, "file_not_found")).suggestion).toMatch(/findFiles/);
    await failsWith("readFile", { path: "escape/secret.txt" }, "outside_workspace");
    await failsWith("readFile", { path: "../outside/secret.txt" }, "outside_workspace");
    await failsWith("readFile", { path: "src/index.ts\0" }, "invalid_path");
    await failsWith("readFile", { path: "lines.txt", startLine: 101 }, "invalid_arguments");
    await failsWith("readFile", { path: "lines.txt", startLine: 5, endLine: 4 }, "invalid_arguments");
    expect(() => v.parse(tool("readFile").input, { path: "a", maxBytes: 5 * 1024 * 1024 })).toThrow();
    expect(() => v.parse(tool("readFile").input, { path: "a", startLine: 0 })).toThrow();
  });
});

describe("getToolCapabilities", () => {
  it("explains missing probes and the missing extension", async () => {
    const needsRg = { ...tool("findFiles"), name: "searchWorkspace", requires: { probe: "rg-definitely-missing" } };
    const needsExt = { ...tool("findFiles"), name: "getDiagnostics", requires: { extension: "required" as const } };
    const fallback = { ...tool("findFiles"), name: "openFile", requires: { extension: "fallback" as const } };
    const needsSh = { ...tool("findFiles"), name: "runSh", requires: { probe: "sh" } };
    const context = await makeToolContext(root, { catalog: catalogOf([...workspaceTools, needsRg, needsExt, fallback, needsSh]) });
    const out = await call<{ extensionConnected: boolean; probes: { name: string; available: boolean }[]; counts: Record<string, number>; tools: Record<string, unknown>[] }>("getToolCapabilities", {}, context);
    expect(out.extensionConnected).toBe(false);
    expect(out.probes.map((p) => p.name)).toEqual(["git", "rg", "typescript-language-server", "gh", "rg-definitely-missing", "sh"]);
    expect(out.counts).toEqual({ total: 9, available: 7, unavailable: 2 });
    const byName = new Map(out.tools.map((t) => [t.name, t]));
    expect(byName.get("searchWorkspace")).toMatchObject({ available: false, reason: "needs `rg-definitely-missing` on PATH" });
    expect(byName.get("getDiagnostics")).toMatchObject({ available: false, reason: "needs the VS Code extension" });
    expect(byName.get("openFile")).toEqual({ name: "openFile", available: true, note: "fallback mode (no extension)" });
    expect(byName.get("runSh")).toEqual({ name: "runSh", available: true });
    expect(byName.get("readFile")).toEqual({ name: "readFile", available: true });
    const connected = await makeToolContext(root, { catalog: catalogOf([needsExt, fallback]), extension: { connected: true } });
    const out2 = await call<{ tools: Record<string, unknown>[] }>("getToolCapabilities", {}, connected);
    expect(out2.tools).toEqual([{ name: "getDiagnostics", available: true }, { name: "openFile", available: true }]);
  });
});
