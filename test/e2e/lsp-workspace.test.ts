// Whole-workspace and whole-directory diagnostics with the real servers, and the server pool as a
// capped resource: a directory is checked on its own, the project's own code is shown before its
// benchmarks, and past the cap on running servers the least recently used one is stopped (and
// started again on its next call for a file it has no kept answer for), with each server's memory
// and the caps in status.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_MAX_MEMORY_BYTES } from "../../src/lsp/lsp-service.ts";
import { lspFixture, type LspFixture } from "../helpers/lsp-fixture.ts";

interface Diagnostics {
  diagnostics: { file: string; line: number; message: string; severity: string }[];
  counts: { error: number };
  sources: string[];
  skipped: { source: string; reason: string }[];
}

describe("workspace diagnostics and the capped server pool", () => {
  let fx: LspFixture;
  beforeAll(async () => {
    const files: Record<string, string> = {
      "tsconfig.json": JSON.stringify({ compilerOptions: { strict: true, module: "nodenext", noEmit: true } }),
      "src/main.ts": 'import { helper } from "./helper.js";\nexport const n: number = helper();\n',
      "src/helper.ts": "export function helper(): number {\n  return 1;\n}\n",
      "src/broken.ts": 'export const broken: number = "oops";\n',
      "config.yaml": "name: demo\nitems:\n  - one\n",
    };
    // What a real repository has besides its code: benchmarks with errors of their own, sorted before src/ by name.
    for (let i = 0; i < 5; i++) files[`benchmarks/bench${i}.ts`] = `export const b${i}: number = "not a number";\n`;
    fx = await lspFixture(files, { maxServers: 1 });
  }, 120_000);
  afterAll(async () => {
    await fx?.stop();
  });

  it("checks a directory on its own, and shows the project's own code before its benchmarks", async () => {
    const src = await fx.tools.data<Diagnostics>("getDiagnostics", { file: "src", severity: "error" });
    expect(src.skipped).toEqual([]);
    expect(src.diagnostics.map((d) => `${d.file}:${d.line}`)).toEqual(["src/broken.ts:1"]);
    expect(src.diagnostics[0]?.message).toContain("not assignable to type 'number'");

    const all = await fx.tools.data<Diagnostics>("getDiagnostics", { severity: "error", maxResults: 2 });
    expect(all.counts.error).toBe(6);
    expect(all.diagnostics.map((d) => d.file)).toEqual(["src/broken.ts", "benchmarks/bench0.ts"]);
  });

  it("past its deadline, starts no more files and names those it left, the project's own code first in line", async () => {
    const found = await fx.lsp.workspaceDiagnostics({ signal: AbortSignal.timeout(60_000), maxFiles: 100, deadline: Date.now() });
    expect(found.files).toEqual([]);
    expect(found.notChecked).toBe(found.notReached.length);
    const ranks = found.notReached.map((f) => (f.startsWith("src/") ? 0 : f.startsWith("benchmarks/") ? 2 : 3));
    expect(ranks).toEqual([...ranks].sort());
    expect(found.notReached.slice(0, 3).sort()).toEqual(["src/broken.ts", "src/helper.ts", "src/main.ts"]);
    expect(found.notReached).toContain("benchmarks/bench4.ts");
  });

  it("stops the least recently used server past the cap, reports each server's memory, and starts it again on its next call", async () => {
    const running = () => fx.lsp.status().servers.filter((s) => s.state === "running");
    // Changed since the workspace check above: a stopped YAML server's kept answer for it does not stand.
    await fx.write("config.yaml", "name: demo\nitems:\n  - two\n");
    await fx.tools.data<Diagnostics>("getDiagnostics", { file: "src/main.ts" });
    expect(running().map((s) => s.id)).toEqual(["tsgo"]);
    expect(running()[0]?.memoryBytes).toBeGreaterThan(1024 * 1024);
    expect(fx.lsp.status().limits).toMatchObject({ maxServers: 1, maxMemoryBytes: DEFAULT_MAX_MEMORY_BYTES });

    await fx.tools.data<Diagnostics>("getDiagnostics", { file: "config.yaml" });
    expect(running().map((s) => s.id)).toEqual(["yaml-language-server"]);
    expect(fx.lsp.status().servers.find((s) => s.id === "tsgo")?.state).toBe("evicted");

    // Unchanged since the stopped tsgo answered for it: its kept answer, given without starting it (kept-diagnostics.ts).
    const kept = await fx.tools.data<Diagnostics>("getDiagnostics", { file: "src/main.ts", severity: "error" });
    expect(kept.diagnostics).toEqual([]);
    expect(running().map((s) => s.id)).toEqual(["yaml-language-server"]);

    const again = await fx.tools.data<Diagnostics>("getDiagnostics", { file: "src/broken.ts", severity: "error" });
    expect(again.diagnostics.map((d) => d.file)).toEqual(["src/broken.ts"]);
    expect(running().map((s) => s.id)).toEqual(["tsgo"]);
    expect(fx.lsp.status().servers.find((s) => s.id === "yaml-language-server")?.state).toBe("evicted");

    const caps = await fx.tools.data<{ lsp: { limits: { maxServers: number } } }>("getToolCapabilities", {});
    expect(caps.lsp.limits.maxServers).toBe(1);
  });
});
