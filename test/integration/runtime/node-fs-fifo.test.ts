// The Node Fs port's descriptor handles on a FIFO (split from test/unit/runtime/node-fs.test.ts):
// Node cannot make a FIFO itself, so the test runs mkfifo.
import { execFileSync } from "node:child_process";
import { mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createNodeFs } from "../../../runtime/shared/fs.ts";
import { RuntimeError } from "../../../src/ports/errors.ts";

const fs = createNodeFs();
let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "cib-nodefs-"));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The code a port call failed with: it must fail with the port's RuntimeError, never Node's own. */
async function codeOf(promise: Promise<unknown>): Promise<string> {
  return promise.then(
    () => "resolved",
    (err: unknown) => (err instanceof RuntimeError ? err.code : `not a RuntimeError: ${String(err)}`),
  );
}

describe("descriptor handles (openFile, openDirectory)", () => {
  it("refuses a symlink as the last component and never blocks on a FIFO", async () => {
    await writeFile(join(dir, "target"), "t");
    await symlink(join(dir, "target"), join(dir, "link"));
    expect(await codeOf(fs.openFile(join(dir, "link")))).toBe("ELOOP");
    execFileSync("mkfifo", [join(dir, "fifo")]);
    const fifo = await fs.openFile(join(dir, "fifo"));
    const st = await fifo.stat();
    expect(st.isFile || st.isDirectory).toBe(false);
    await fifo.close();
  });
});
