// The pure parts of the LSP client: positions from {line, symbol, column}, heritage clauses for
// the derived type hierarchy, the jail check of a WorkspaceEdit, configuration answers, and the
// config file's lsp key.
import { mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createNodeRuntime } from "../../../runtime/node.ts";
import { ToolError } from "../../../src/errors.ts";
import { LspConfigSchema } from "../../../src/config/lsp-schema.ts";
import { configuredServers } from "../../../src/lsp/configured-servers.ts";
import { languageIdOf } from "../../../src/lsp/languages.ts";
import { lspPosition, splitLines } from "../../../src/lsp/positions.ts";
import { settingFor } from "../../../src/lsp/server-requests.ts";
import { checkWorkspaceEdit } from "../../../src/lsp/workspace-edit.ts";
import { createWorkspace } from "../../../src/security/jail/workspace-jail.ts";
import { heritageNames } from "../../../src/tools/lsp/derived-type-hierarchy.ts";
import * as v from "valibot";

const lines = splitLines(["const total = sum(a, b);", "function sum(x: number, y: number) {", "  return x + y; // sum", "}"].join("\n"));

describe("lspPosition", () => {
  const at = (input: { line: number; symbol?: string; column?: number }, text = lines) => lspPosition(text, input, { file: "f.ts" });

  it("locates a symbol on its line as a whole word", () => {
    expect(at({ line: 1, symbol: "sum" })).toEqual({ position: { line: 0, character: 14 } });
    expect(at({ line: 3, symbol: "x" })).toEqual({ position: { line: 2, character: 9 } });
  });

  it("uses a nearby line only with a note saying where it was found", () => {
    expect(at({ line: 4, symbol: "function" })).toEqual({
      position: { line: 1, character: 0 },
      note: '"function" is on line 2 of f.ts, not 4: answered for line 2.',
    });
  });

  it("refuses two whole-word matches on the line without a column, listing both; a column picks one", () => {
    const two = splitLines("const total = add(add, 2);");
    expect(() => at({ line: 1, symbol: "add" }, two)).toThrow('"add" occurs 2 times on line 1 of f.ts, at columns 15 and 19');
    expect(at({ line: 1, symbol: "add", column: 19 }, two)).toEqual({ position: { line: 0, character: 18 } });
    expect(at({ line: 1, symbol: "add", column: 16 }, two)).toEqual({ position: { line: 0, character: 14 } });
  });

  it("refuses a name found only inside a longer one, naming it, rather than answer for the longer name", () => {
    const text = splitLines("import { HonoRequest } from './request';");
    expect(() => at({ line: 1, symbol: "Request" }, text)).toThrow(
      '"Request" is not a whole name on line 1 of f.ts: it is part of "HonoRequest" (column 10)',
    );
  });

  it("refuses a symbol found on two lines equally near", () => {
    const text = splitLines(["let a = 1;", "", "let b = a;"].join("\n"));
    expect(() => at({ line: 2, symbol: "a" }, text)).toThrow('"a" is not on line 2 of f.ts, but on lines 1 and 3, equally near');
  });

  it("takes a 1-based column, and refuses one outside the line", () => {
    expect(at({ line: 2, column: 10 })).toEqual({ position: { line: 1, character: 9 } });
    expect(() => at({ line: 2, column: 99 })).toThrow(/column 99 is outside line 2/);
  });

  it("asks for a symbol or a column, and refuses a line outside the file", () => {
    expect(() => at({ line: 1 })).toThrow(ToolError);
    expect(() => at({ line: 9, symbol: "sum" })).toThrow(/line 9 is outside f\.ts \(4 lines\)/);
    expect(() => at({ line: 1, symbol: "missing" })).toThrow(/"missing" is not on line 1 of f\.ts/);
  });
});

describe("heritageNames", () => {
  it("reads TypeScript extends/implements, skipping type arguments", () => {
    const ts = ["export class Box<T> extends Base<Map<string, T>> implements Shape, Named {"];
    expect(heritageNames(ts, 0).map((b) => [b.name, b.position.character])).toEqual([
      ["Base", 28],
      ["Shape", 60],
      ["Named", 67],
    ]);
  });

  it("reads Python bases and C++ base clauses", () => {
    expect(heritageNames(["class Dog(Animal, metaclass=Meta):"], 0).map((b) => b.name)).toEqual(["Animal", "Meta"]);
    expect(heritageNames(["struct Box final : public Shape, private mixins::Named {"], 0).map((b) => b.name)).toEqual(["Shape", "Named"]);
  });
});

describe("languageIdOf", () => {
  it.each([
    ["src/a.ts", "typescript"],
    ["a.tsx", "typescriptreact"],
    ["x/tsconfig.json", "jsonc"],
    ["deploy.yml", "yaml"],
    ["run.sh", "shellscript"],
    ["lib.hpp", "cpp"],
    ["notes.txt", undefined],
    [".env", undefined],
  ])("%s is %s", (path, id) => {
    expect(languageIdOf(path)).toBe(id);
  });
});

describe("server requests", () => {
  it("answers workspace/configuration by section, dotted or whole", () => {
    const settings = { yaml: { validate: true }, "python.analysis": { mode: "x" }, python: { path: "p" } };
    expect(settingFor(settings, "yaml")).toEqual({ validate: true });
    expect(settingFor(settings, "yaml.validate")).toBe(true);
    expect(settingFor(settings, "python.analysis")).toEqual({ mode: "x" });
    expect(settingFor(settings, "unknown.section")).toBeNull();
  });
});

describe("the lsp config key", () => {
  it("turns each language's entry into a server claiming that language first", () => {
    const config = v.parse(LspConfigSchema, {
      rust: { command: "rust-analyzer", filePatterns: ["*.rs"], rootMarkers: ["Cargo.toml"], initializationOptions: { check: "clippy" } },
    });
    expect(configuredServers(config)).toEqual([
      {
        id: "config:rust",
        languages: ["rust"],
        command: [{ onPath: "rust-analyzer" }],
        args: [],
        rootMarkers: ["Cargo.toml"],
        initializationOptions: { check: "clippy" },
        filePatterns: ["*.rs"],
        readiness: { rule: "stable", settleMs: 1000 },
      },
    ]);
    expect(v.safeParse(LspConfigSchema, { rust: { command: "" } }).success).toBe(false);
    expect(v.safeParse(LspConfigSchema, { rust: { command: "x", extra: 1 } }).success).toBe(false);
  });
});

describe("checkWorkspaceEdit", () => {
  it("keeps an edit inside the workspace and refuses one that touches a file outside, whole", async () => {
    const runtime = createNodeRuntime();
    const root = await realpath(await mkdtemp(join(tmpdir(), "lsp-edit-")));
    await writeFile(join(root, "a.ts"), "let a = 1;\n");
    try {
      const jail = await createWorkspace(runtime.fs, { root });
      const resolve = (uri: string, opts: { mustExist: boolean }) => jail.resolve(uri, opts);
      const range = { start: { line: 0, character: 4 }, end: { line: 0, character: 5 } };
      const inside = await checkWorkspaceEdit({ changes: { [`file://${root}/a.ts`]: [{ range, newText: "b" }] } }, resolve);
      expect(inside.changes).toEqual([{ kind: "edit", path: join(root, "a.ts"), edits: [{ range, newText: "b" }], version: null }]);
      const created = await checkWorkspaceEdit({ documentChanges: [{ kind: "create", uri: `file://${root}/new.ts` }] }, resolve);
      expect(created.changes).toEqual([{ kind: "create", path: join(root, "new.ts"), overwrite: false, ignoreIfExists: false }]);
      const outside = checkWorkspaceEdit(
        {
          documentChanges: [
            { textDocument: { uri: `file://${root}/a.ts`, version: 1 }, edits: [] },
            { kind: "delete", uri: "file:///etc/passwd" },
          ],
        },
        resolve,
      );
      await expect(outside).rejects.toMatchObject({ code: "outside_workspace", message: expect.stringContaining("file:///etc/passwd") });
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
