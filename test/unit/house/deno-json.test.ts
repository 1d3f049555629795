// Deno resolves bare imports through deno.json, not package.json; a dependency added to one and not
// the other works on Node and breaks on Deno only, so the two must list the same ranges.
import { readFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");

async function readJson(name: string): Promise<unknown> {
  return JSON.parse(await readFile(resolve(root, name), "utf8"));
}

function stringRecord(value: unknown, what: string): Record<string, string> {
  if (typeof value !== "object" || value === null) throw new Error(`${what} is not an object`);
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(value)) {
    if (typeof v !== "string") throw new Error(`${what}.${k} is not a string`);
    out[k] = v;
  }
  return out;
}

function field(obj: unknown, key: string): unknown {
  return typeof obj === "object" && obj !== null && key in obj ? (obj as Record<string, unknown>)[key] : undefined;
}

describe("deno.json", async () => {
  const pkg = await readJson("package.json");
  const deno = await readJson("deno.json");
  const deps = Object.entries(stringRecord(field(pkg, "dependencies"), "package.json dependencies"));
  const imports = stringRecord(field(deno, "imports"), "deno.json imports");

  it.each(deps)("maps %s to npm:%s@<same range>", (name, range) => {
    expect(imports[name]).toBe(`npm:${name}@${range}`);
  });

  it.each(deps)("prefix-maps %s/ for subpath imports with the same range", (name, range) => {
    const prefix = imports[`${name}/`];
    // Only packages imported by subpath need a prefix entry; when present it must agree.
    if (prefix !== undefined) expect(prefix).toBe(`npm:/${name}@${range}/`);
  });

  it("has a prefix entry for hono, whose subpaths (hono/ws, hono/bun, hono/deno) we import", () => {
    expect(imports["hono/"]).toBeDefined();
  });

  it("maps nothing that package.json does not depend on", () => {
    const names = new Set(deps.map(([name]) => name));
    for (const key of Object.keys(imports)) expect(names.has(key.replace(/\/$/, "")), key).toBe(true);
  });

  it("has a start task", () => {
    expect(stringRecord(field(deno, "tasks"), "deno.json tasks").start).toMatch(/^deno run /);
  });
});
