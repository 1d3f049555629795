// DESIGN.md, "The one rule": src/ never knows its runtime. src/tsconfig.json ("types": []) catches
// most slips at compile time; this walks the sources with the TypeScript parser to catch the rest
// (a dynamic import of "node:fs", `globalThis.process`, a new dependency). The parser, not regexes,
// so comments, strings and regex literals cannot fool it.
import { readFile } from "node:fs/promises";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { scan, sourceFiles, type Specifier } from "../../helpers/source-imports.ts";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
const srcDir = join(root, "src");

const ALLOWED_PACKAGES = ["hono", "valibot", "@valibot/to-json-schema", "jose", "@cfworker/json-schema"];
const TYPE_ONLY_PACKAGES = ["vscode-languageserver-protocol", "@vscode/debugprotocol"];

function allowed(file: string, { spec, typeOnly }: Specifier): boolean {
  if (spec.startsWith(".")) {
    const target = resolve(dirname(file), spec);
    return !relative(srcDir, target).startsWith("..");
  }
  const pkg = spec.startsWith("@") ? spec.split("/").slice(0, 2).join("/") : (spec.split("/")[0] ?? "");
  if (ALLOWED_PACKAGES.includes(pkg)) return true;
  return typeOnly && TYPE_ONLY_PACKAGES.includes(pkg);
}

describe("the one rule", async () => {
  const files = await sourceFiles(srcDir);
  const cases = files.map((f) => [relative(root, f), f] as const);

  it("finds the sources", () => {
    expect(files.length).toBeGreaterThan(3);
  });

  it.each(cases)("%s imports only allowed modules and no runtime globals", async (_name, file) => {
    const found = scan(await readFile(file, "utf8"));
    expect(found.specifiers.filter((s) => !allowed(file, s)).map((s) => s.spec)).toEqual([]);
    expect(found.runtimeGlobals).toEqual([]);
  });

  describe("the checks themselves", () => {
    const file = join(srcDir, "x.ts");
    const verdict = (line: string) => {
      const { specifiers } = scan(line);
      expect(specifiers.length, line).toBe(1);
      return specifiers.every((s) => allowed(file, s));
    };

    it.each([
      'import { readFile } from "node:fs";',
      'import fs from "fs";',
      'export { x } from "../runtime/node.ts";',
      'import { y } from "../../outside.ts";',
      'import type { Runtime } from "../runtime/types.ts";',
      'const m = await import("node:child_process");',
      "const m = await import(name);",
      'import { Range } from "vscode-languageserver-protocol";',
      'import { type Range, Position } from "vscode-languageserver-protocol";',
    ])("refuses %s", (line) => {
      expect(verdict(line)).toBe(false);
    });

    it.each([
      'import { Hono } from "hono";',
      'import { upgradeWebSocket } from "hono/ws";',
      'import * as v from "valibot";',
      'import { toJsonSchema } from "@valibot/to-json-schema";',
      'import type { Runtime } from "./runtime.ts";',
      'import type { Range } from "vscode-languageserver-protocol";',
      'import { type Range, type Position } from "vscode-languageserver-protocol";',
      'type R = import("vscode-languageserver-protocol").Range;',
      'export * from "./y.ts";',
      'const m = await import("./lazy.ts");',
    ])("allows %s", (line) => {
      expect(verdict(line)).toBe(true);
    });

    it("finds runtime globals in code only", () => {
      const code = [
        "// process.env in a comment",
        'const s = "process.exit() in a string // not a comment";',
        "const a = process.env.HOME;",
        'const b = Deno["args"];',
        "const c = globalThis.Bun;",
        "const d = obj.process.x;",
      ].join("\n");
      expect(scan(code).runtimeGlobals).toEqual(["process.env", 'Deno["args"]', "globalThis.Bun"]);
    });
  });
});
