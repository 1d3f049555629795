// The language-server manager under the conditions the issue names: a change made outside the
// bridge is seen by the next call (diagnostics and navigation), watchDiagnostics wakes on it, a
// server killed with SIGKILL is replaced on the next call, several sessions share one server, and
// a cold project of 600 files gets a complete first findReferences (or one that says it is not).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lspFixture, type LspFixture } from "../helpers/lsp-fixture.ts";
import { running as processRunning } from "../helpers/process-running.ts";
import { TS_PROJECT } from "../fixtures/lsp-projects.ts";

describe("one TypeScript project over time", () => {
  let fx: LspFixture;

  beforeAll(async () => {
    fx = await lspFixture(TS_PROJECT);
  });

  afterAll(async () => {
    await fx?.stop();
  });

  it("diagnostics follow an edit made outside the bridge, and watchDiagnostics wakes on it", async () => {
    expect((await fx.tools.text("jumpToFirstError", { file: "src/main.ts" })).split("\n")[0]).toBe(
      "src/main.ts:8:14 error ts(2322): Type 'string' is not assignable to type 'number'.",
    );
    const quiet = await fx.tools.text("watchDiagnostics", { file: "src/main.ts", timeoutSeconds: 1 });
    expect(quiet).toMatch(/^No change within 1 s\. 1 error, 0 other in 1 file\.\nsince: [0-9a-f]{8}$/);
    const since = quiet.split("since: ")[1];
    // With the token, the change is reported whether it lands before or during the wait.
    const watching = fx.tools.text("watchDiagnostics", { file: "src/main.ts", timeoutSeconds: 60, since });
    await fx.write("src/main.ts", TS_PROJECT["src/main.ts"].replace('"oops"', "42"));
    const woke = await watching;
    expect(woke.split("\n")[0]).toMatch(/^Diagnostics changed( since that token)?: 0 errors, 0 other in 1 file\.$/);
    expect(await fx.tools.text("jumpToFirstError", { file: "src/main.ts" })).toBe("No errors in src/main.ts.");
    // Written back: the error is there again for the next call, without any notice to the bridge.
    await fx.write("src/main.ts", TS_PROJECT["src/main.ts"].replace('"oops"', "'again'"));
    expect((await fx.tools.text("jumpToFirstError", { file: "src/main.ts" })).split("\n")[0]).toBe(
      "src/main.ts:8:14 error ts(2322): Type 'string' is not assignable to type 'number'.",
    );
  });

  it("a file changed outside the bridge, not open in the server, is seen by findReferences", async () => {
    await fx.write("src/extra.ts", 'import { totalArea } from "./geometry.js";\nexport const more = totalArea([]);\n');
    await expect
      .poll(
        async () =>
          (await fx.tools.text("findReferences", { file: "src/geometry.ts", line: 4, symbol: "totalArea", verbosity: "minimal" })).split(
            "\n",
          ),
        { timeout: 15_000 },
      )
      .toEqual([
        "5 references to `totalArea` in 3 files (complete):",
        "src/extra.ts:1:10",
        "src/extra.ts:2:21",
        "src/geometry.ts:4:17",
        "src/main.ts:2:10",
        "src/main.ts:5:10",
      ]);
  });

  it("a server killed with SIGKILL is started again by the next call, which succeeds", async () => {
    const before = fx.lsp.status().servers.find((s) => s.id === "tsgo");
    expect(before?.pid).toBeTypeOf("number");
    process.kill(before?.pid as number, "SIGKILL");
    await expect.poll(() => fx.lsp.status().servers.find((s) => s.id === "tsgo")?.state).toBe("crashed");
    expect(await fx.tools.text("goToDefinition", { file: "src/main.ts", line: 5, symbol: "totalArea", verbosity: "minimal" })).toBe(
      "1 definition of `totalArea` (src/main.ts:5:10):\nsrc/geometry.ts:4:17",
    );
    const after = fx.lsp.status().servers.find((s) => s.id === "tsgo");
    expect(after).toMatchObject({ state: "running", crashes: 1 });
    expect(after?.pid).not.toBe(before?.pid);
    // getToolCapabilities shows it: where each server was found, and the running one's state.
    const caps = await fx.tools.data<{
      lsp: { servers: { id: string; found: string | null; running: { root: string; state: string; crashes: number }[] }[] };
    }>("getToolCapabilities");
    const tsgo = caps.lsp.servers.find((s) => s.id === "tsgo");
    // TypeScript 7's own native server, not the preview.
    expect(tsgo?.found).toMatch(/^bundled: \/.*\/@typescript\/typescript-linux-x64\/lib\/tsc$/);
    expect(tsgo?.running).toEqual([expect.objectContaining({ root: ".", state: "running", crashes: 1 })]);
    expect(caps.lsp.servers.find((s) => s.id === "gopls")?.found).toMatch(/^PATH: /);
  });

  it("several sessions calling at once share one server and all get their answers", async () => {
    const sessions = await Promise.all([fx.session(), fx.session(), fx.session()]);
    const calls = sessions.flatMap((s) => [
      s.text("goToDefinition", { file: "src/main.ts", line: 5, symbol: "totalArea", verbosity: "minimal" }),
      s.text("findReferences", { file: "src/cycle-b.ts", line: 2, symbol: "fromB", verbosity: "minimal" }),
      s.text("getTypeSignature", { file: "src/geometry.ts", line: 4, symbol: "totalArea" }),
    ]);
    const answers = await Promise.all(calls);
    for (let i = 0; i < answers.length; i += 3) {
      expect(answers[i]).toBe("1 definition of `totalArea` (src/main.ts:5:10):\nsrc/geometry.ts:4:17");
      expect(answers[i + 1]?.split("\n")[0]).toBe("3 references to `fromB` in 2 files (complete):");
      expect(answers[i + 2]).toBe("function totalArea(shapes: Shape[]): number");
    }
    expect(fx.lsp.status().servers.filter((s) => s.id === "tsgo" && s.state === "running")).toHaveLength(1);
  });
});

describe("an idle server", () => {
  it("is shut down after the idle time, and started again by the next call", async () => {
    const fx = await lspFixture(TS_PROJECT, { idleMs: 1000 });
    try {
      const define = () => fx.tools.text("goToDefinition", { file: "src/main.ts", line: 5, symbol: "totalArea", verbosity: "minimal" });
      expect(await define()).toBe("1 definition of `totalArea` (src/main.ts:5:10):\nsrc/geometry.ts:4:17");
      const pid = fx.lsp.status().servers[0]?.pid as number;
      await expect.poll(() => fx.lsp.status().servers[0]?.state, { timeout: 15_000 }).toBe("idle");
      // The idle state is set as the shutdown begins; the process is gone once it is done.
      await expect.poll(() => processRunning(pid)).toBe(false);
      expect(await define()).toBe("1 definition of `totalArea` (src/main.ts:5:10):\nsrc/geometry.ts:4:17");
      expect(fx.lsp.status().servers[0]).toMatchObject({ state: "running", crashes: 0 });
    } finally {
      await fx.stop();
    }
  });
});

describe("a cold project of 600 files", () => {
  let fx: LspFixture;
  const FILES = 600;

  beforeAll(async () => {
    const files: Record<string, string> = {
      "tsconfig.json": JSON.stringify({ compilerOptions: { strict: true, module: "nodenext", noEmit: true }, include: ["src"] }),
      "src/core.ts": "export function shared(n: number): number {\n  return n + 1;\n}\n",
    };
    for (let i = 0; i < FILES; i++)
      files[`src/m${i}/use${i}.ts`] = `import { shared } from "../core.js";\nexport const v${i} = shared(${i});\n`;
    fx = await lspFixture(files);
  });

  afterAll(async () => {
    await fx?.stop();
  });

  it("the first findReferences is complete, or says it is partial", async () => {
    const text = await fx.tools.text("findReferences", {
      file: "src/core.ts",
      line: 1,
      symbol: "shared",
      verbosity: "minimal",
      maxResults: 5000,
    });
    const head = text.split("\n")[0] ?? "";
    if (head.startsWith("PARTIAL")) expect(text.split("\n")[1]).toMatch(/\(partial\):$/);
    else expect(head).toBe(`${2 * FILES + 1} references to \`shared\` in ${FILES + 1} files (complete):`);
  });
});
