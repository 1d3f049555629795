// The workspace jail and ctx.fs held to one contract on node, bun and deno: descriptor-checked reads
// and listings, refused symlinks out, FIFOs and hard-link writes, POSIX "..", atomic writes through
// the parent directory (fixtures/probe-jail.ts runs them under each runtime).
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../helpers/spawn-bridge.ts";
import { startProcess, stopAll, type Started } from "./process.ts";
import { assertRuntimesInstalled, RUNTIMES, scriptCommand } from "./runtimes.ts";

const PROBE = join(REPO_ROOT, "test", "contract", "fixtures", "runtime-probe.ts");

beforeAll(() => assertRuntimesInstalled());
afterAll(() => stopAll());

describe.each(RUNTIMES)("the jail on %s", (runtime) => {
  let probe: Started;

  beforeAll(async () => {
    probe = await startProcess(scriptCommand(runtime, PROBE), { ready: /PROBE_PORT=(\d+)/ });
  });

  afterAll(async () => {
    await probe?.stop();
  });

  it("reads, lists, walks and writes inside, and refuses every way out", async () => {
    const cases = (await (await fetch(`http://127.0.0.1:${probe.ready[1]}/jail/cases`)).json()) as Record<string, unknown>;
    expect(cases).toEqual({
      read: { ok: "one\ntwo\n" },
      readThroughSymlinkOut: { name: "ToolError", code: "outside_workspace" },
      readDotDotAfterSymlink: { name: "ToolError", code: "outside_workspace" },
      readFifo: { name: "ToolError", code: "not_a_file" },
      readHardLink: { ok: "secret" },
      list: { ok: ["file:a.ts"] },
      walk: { ok: ["directory:src", "file:hard.txt", "symlink:out-dir", "symlink:out-file", "other:pipe", "file:src/a.ts"] },
      write: { ok: "b\n" },
      writeHardLink: { name: "ToolError", code: "invalid_path" },
      writeThroughSymlinkDir: { name: "ToolError", code: "outside_workspace" },
      secretAfterwards: "secret",
    });
  });
});
