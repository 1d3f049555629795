// The suite's start order (test/sequencer.ts) rests on two lists in test/suite-order.ts; a file
// renamed or moved, or a project added, would drop out of them silently and start late again.
import { existsSync, readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { HEAVY_FILES, HEAVY_THRESHOLD_S, PROJECT_ORDER } from "../../suite-order.ts";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");

describe("the suite's start order", () => {
  it("names only test files that exist, each under a project it orders", () => {
    const missing = Object.keys(HEAVY_FILES).filter((file) => !existsSync(resolve(root, file)));
    expect(missing).toEqual([]);
    const outside = Object.keys(HEAVY_FILES).filter((file) => !PROJECT_ORDER.some((project) => file.startsWith(`test/${project}/`)));
    expect(outside).toEqual([]);
    expect(HEAVY_THRESHOLD_S).toBeGreaterThan(0);
  });

  it("orders exactly the projects vitest.config.ts defines", () => {
    const config = readFileSync(resolve(root, "vitest.config.ts"), "utf8");
    const projects = [...config.matchAll(/^\s*name: "([\w-]+)",$/gm)].map((m) => m[1]);
    expect(projects.length).toBeGreaterThan(0);
    expect([...PROJECT_ORDER].sort()).toEqual([...projects].sort());
  });
});
