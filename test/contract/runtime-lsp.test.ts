// Runtime.languageServers (runtime/lsp-*.ts) held to one contract on node, bun and deno: the probe
// (fixtures/probe-lsp.ts) talks LSP to a tiny fake server under each runtime and reports what it saw.
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../helpers/spawn-bridge.ts";
import { startProcess, stopAll, type Started } from "./process.ts";
import { assertRuntimesInstalled, RUNTIMES, scriptCommand } from "./runtimes.ts";

const PROBE = join(REPO_ROOT, "test", "contract", "fixtures", "runtime-probe.ts");

beforeAll(() => assertRuntimesInstalled());
afterAll(() => stopAll());

describe.each(RUNTIMES)("language servers on %s", (runtime) => {
  let probe: Started;

  beforeAll(async () => {
    probe = await startProcess(scriptCommand(runtime, PROBE), { ready: /PROBE_PORT=(\d+)/ });
  });

  afterAll(async () => {
    await probe?.stop();
  });

  it("frames LSP both ways, answers server->client requests, cancels, and sees a crash", async () => {
    const report = (await (await fetch(`http://127.0.0.1:${probe.ready[1]}/lsp/roundtrip`)).json()) as Record<string, unknown>;
    expect(report).toEqual({
      pid: "number",
      fromInitialize: {
        configuration: [{ answeredBy: "core" }],
        progress: null,
        registered: null,
        applied: { applied: false, failureReason: "refused" },
        unknown: { code: -32601 },
      },
      echoedIntact: true,
      notified: { n: 7 },
      cancelled: { name: "LspRequestError", code: "-32800" },
      exitCode: 3,
      afterExit: { name: "LspRequestError", code: "closed" },
      stderr: "fake language server started\n",
      bundled: { pyright: true, native: true, missing: null },
    });
  });
});
