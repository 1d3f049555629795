// The shim's lock discovery on real lock files: live locks whose workspace contains the directory,
// bridges first, the sticky port, the newest. A dead pid is that of a child started here that has
// exited, so this is an integration test (split from test/unit/shim/shim-connect.test.ts); the
// rules themselves are in test/unit/lock/lock-rules.test.ts.
import { spawnSync } from "node:child_process";
import { mkdtemp, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { findTarget } from "../../../shim/discovery.ts";

const DEAD_PID = spawnSync(process.execPath, ["-e", "0"]).pid;
let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "shim-locks-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function lock(port: number, fields: Record<string, unknown>, ageMs = 0): Promise<void> {
  const path = join(dir, `${port}.lock`);
  await writeFile(
    path,
    JSON.stringify({ pid: process.pid, transport: "ws", authToken: `tok-${port}`, workspaceFolders: ["/work/app"], ...fields }),
  );
  const t = new Date(Date.now() - ageMs);
  await utimes(path, t, t);
}

describe("findTarget", () => {
  it("takes live locks whose workspace contains the directory: bridges first, then the newest", async () => {
    await lock(5001, { isBridge: true }, 5_000);
    await lock(5002, { isBridge: true }, 1_000);
    await lock(5003, {}, 0); // an IDE, newest of all
    await lock(5004, { isBridge: true, pid: DEAD_PID }, 0);
    await lock(5005, { isBridge: true, workspaceFolders: ["/elsewhere"] }, 0);
    await lock(5006, { isBridge: true, transport: "sse" }, 0);
    await lock(5008, { isBridge: true, pid: 0 }, 0); // kill(0, 0) succeeds: once a ghost the shim waited on
    await writeFile(join(dir, "5007.lock"), "{ half-written");
    await writeFile(join(dir, "checkpoint-5002.json"), "{}");
    expect(await findTarget({ dir, cwd: "/work/app/src" })).toEqual({
      port: 5002,
      token: "tok-5002",
      fromLock: true,
      isBridge: true,
      pid: process.pid,
    });
    // The port it was on stays preferred while its lock is valid: the session lives there.
    expect((await findTarget({ dir, cwd: "/work/app", previousPort: 5001 }))?.port).toBe(5001);
    expect(await findTarget({ dir, cwd: "/work/other" })).toBeUndefined();
    expect((await findTarget({ dir, cwd: "/work/app", port: 5005 }))?.token).toBe("tok-5005"); // --port: workspace not checked
    expect(await findTarget({ dir, cwd: "/work/app", port: 5008 })).toBeUndefined(); // --port: still live only
    expect(await findTarget({ dir: join(dir, "missing"), cwd: "/work/app" })).toBeUndefined();
  });

  it("falls back to other IDEs' locks when no bridge serves the directory", async () => {
    await lock(5003, { ideName: "VS Code" });
    expect(await findTarget({ dir, cwd: "/work/app" })).toMatchObject({ port: 5003, isBridge: false });
  });
});
