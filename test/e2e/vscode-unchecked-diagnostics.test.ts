// getDiagnostics with VS Code connected, on a file VS Code does not check: its TypeScript validates
// only files shown in an editor tab, so a file it opens in memory gets no report and the extension
// answers "not settled". The bridge's own language server (real tsgo here; VS Code is the part
// faked, answering as the real extension did) then answers for the file, so its type error is
// reported on the first call instead of "still checking" on every call.
import { afterAll, beforeAll, expect, it } from "vitest";
import { connectedExtension, type FakeExtension } from "../helpers/fake-extension.ts";
import { lspFixture, type LspFixture } from "../helpers/lsp-fixture.ts";
import { dispatcher } from "../helpers/tool-dispatch.ts";

let fx: LspFixture;
let fake: FakeExtension;
beforeAll(async () => {
  fx = await lspFixture({
    "package.json": JSON.stringify({ name: "unchecked", private: true, type: "module" }),
    "tsconfig.json": JSON.stringify({ compilerOptions: { strict: true, target: "es2022", module: "nodenext", noEmit: true } }),
    "src/port.ts": 'export const port: number = "8080";\n',
    "src/clean.ts": "export const host = 'localhost';\n",
  });
  fake = connectedExtension({
    // The real extension's answer for a file no VS Code checker reported on within its wait.
    "extension/getDiagnostics": (p) => ({ files: [{ uri: p.uri ?? "", diagnostics: [] }], settled: false }),
  });
}, 60_000);
afterAll(async () => {
  await fx?.stop();
});

interface Result {
  diagnostics: { file: string; line: number; severity: string; message: string; source: string }[];
  sources: string[];
  skipped: { source: string; reason: string }[];
}

it("answers from the bridge's language server when VS Code has not checked the file, and says so", async () => {
  const d = await dispatcher(fx.root, { lsp: fx.lsp, extension: fake.client, settings: { timeoutMs: 120_000 } });
  const result = await d.data<Result>("getDiagnostics", { file: "src/port.ts" });
  expect(fake.received.some((r) => r.method === "extension/getDiagnostics")).toBe(true);
  expect(result.diagnostics).toEqual([
    expect.objectContaining({
      file: "src/port.ts",
      line: 1,
      severity: "error",
      message: expect.stringMatching(/not assignable to type 'number'/),
    }),
  ]);
  expect(result.sources).toEqual(["VS Code", expect.stringMatching(/^typescript-go/)]);
  expect(result.skipped).toEqual([
    {
      source: "VS Code",
      reason: expect.stringMatching(/^VS Code reported nothing on src\/port\.ts in its wait .*; typescript-go [\d.]+ answered for it$/),
    },
  ]);
  // A clean file is clean, said by the server that checked it, not "still checking".
  const clean = await d.data<Result>("getDiagnostics", { file: "src/clean.ts" });
  expect(clean.diagnostics).toEqual([]);
  expect(clean.skipped[0]?.reason).toMatch(/typescript-go [\d.]+ answered for it$/);
}, 120_000);
