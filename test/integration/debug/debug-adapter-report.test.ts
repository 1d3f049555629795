// doctor's debug-adapter lines: each language's adapter as the debugger tools find it, with the
// install command when it is missing (here: a PATH without dlv); and getToolCapabilities' bounded view.
import { expect, it } from "vitest";
import { createNodeRuntime } from "../../../runtime/node.ts";
import { debugAdapterChecks } from "../../../src/cli/doctor-debug.ts";
import { DebugEngine } from "../../../src/dap/debug-engine.ts";

it("lists every adapter found, and the install command of a missing one", { timeout: 60_000 }, async () => {
  const runtime = createNodeRuntime();
  const found = await debugAdapterChecks(runtime);
  expect(found.map((c) => [c.status, c.summary.split(":")[0]])).toEqual([
    ["ok", "python"],
    ["ok", "c"],
    ["ok", "go"],
    ["ok", "node"],
  ]);
  expect(found[2]?.summary).toBe("go: delve (dlv dap) (dlv)");
  expect(found[3]?.summary).toBe("node: Node inspector (node --inspect-brk, in-process adapter) (node)");

  const withoutDlv = { ...runtime, which: async (cmd: string) => (cmd === "dlv" ? undefined : runtime.which(cmd)) };
  const go = (await debugAdapterChecks(withoutDlv)).find((c) => c.summary.startsWith("go:"));
  expect(go).toMatchObject({ status: "info", fix: expect.stringContaining("apt-get install delve") });
});

it("getToolCapabilities' view: an adapter whose check has not finished is said to be checking, then found", {
  timeout: 60_000,
}, async () => {
  const engine = new DebugEngine(createNodeRuntime(), { passEnv: [] });
  expect((await engine.adaptersWithin(0)).map((a) => [a.language, a.checking])).toEqual([
    ["python", true],
    ["c", true],
    ["go", true],
    ["node", true],
  ]);
  await engine.adapters();
  expect((await engine.adaptersWithin(0)).map((a) => [a.language, a.available, a.checking])).toEqual([
    ["python", true, undefined],
    ["c", true, undefined],
    ["go", true, undefined],
    ["node", true, undefined],
  ]);
});
