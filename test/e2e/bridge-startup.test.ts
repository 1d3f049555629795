// The bridge's start and end as a user meets them: SIGHUP (a closed terminal) cleans up
// like SIGTERM; a second bridge on one workspace names the first one's pid and port, and
// --exclusive refuses; a port in use is reported before any session is restored from the
// checkpoint, suggesting --port 0; the start-up line names the next step; `stop` stops it cleanly.
import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { type AddressInfo, createServer } from "node:net";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { startBridgeProcess, stopAllBridges } from "../helpers/spawn-bridge.ts";
import { bridgeOn, killHard, makeHome, runCli, sdkThroughShim, type ShimClient } from "./shim-support.ts";

let home: Awaited<ReturnType<typeof makeHome>>;
const clients: ShimClient[] = [];
beforeAll(async () => {
  home = await makeHome();
});
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close();
  await stopAllBridges();
});
afterAll(async () => {
  await home?.remove();
});

const lockOf = (port: number) => join(home.configDir, "ide", `${port}.lock`);

it("SIGHUP removes the lock and exits 0, as SIGTERM does", async () => {
  const bridge = await bridgeOn(home);
  expect(existsSync(lockOf(bridge.port))).toBe(true);
  expect(await bridge.stop("SIGHUP")).toEqual({ code: 0, signal: null });
  expect(existsSync(lockOf(bridge.port))).toBe(false);
});

it("names the next step: the claude mcp add command for this bridge, under a name that is not ide", async () => {
  const bridge = await bridgeOn(home);
  // Logged right after the "listening" line the helper waits for.
  await expect
    .poll(() => bridge.stderr())
    .toMatch(/next: in \S+ run `claude mcp add claude-ide-bridge -- node \S+\/bin\/claude-ide-bridge\.js shim`/);
});

it("a second bridge on the workspace warns with the first one's pid and port; --exclusive refuses to start", async () => {
  const first = await bridgeOn(home);
  const firstPid = (JSON.parse(await readFile(lockOf(first.port), "utf8")) as { pid: number }).pid;
  const second = await bridgeOn(home);
  expect(second.stderr()).toContain(`warn: another bridge already serves ${home.workspace} (pid ${firstPid} on port ${first.port})`);
  expect(second.stderr()).toContain(`claude-ide-bridge stop --port ${first.port}`);
  await second.stop();
  const refused = bridgeOn(home, { args: ["--exclusive"] });
  await expect(refused).rejects.toThrow(
    new RegExp(
      `exited before listening \\(code 1[\\s\\S]*another bridge already serves .*pid ${firstPid} on port ${first.port}.*--exclusive refuses a second one`,
    ),
  );
});

it("a port in use is said first, with --port 0 suggested, and no session is restored before it", async () => {
  const first = await bridgeOn(home);
  const client = await sdkThroughShim({ cwd: home.workspace, configDir: home.configDir });
  clients.push(client);
  const checkpointOf = (port: number) => join(home.configDir, "ide", `checkpoint-${port}.json`);
  await expect
    .poll(async () => (await readFile(checkpointOf(first.port), "utf8").catch(() => "")).includes('"sessions":[{'), { timeout: 8_000 })
    .toBe(true);
  await killHard(first);
  // The squatter takes a free port of its own rather than the one the killed bridge let go: another
  // process of a parallel run may take that one first, and a listen that fails never calls back
  // (the test then waits to its timeout). The checkpoint with the session moves to its port. It
  // drops each connection at once, so that none keeps close() below waiting.
  const squatter = createServer((socket) => socket.destroy());
  const port = await new Promise<number>((resolve, reject) => {
    squatter.once("error", reject);
    squatter.listen(0, "127.0.0.1", () => resolve((squatter.address() as AddressInfo).port));
  });
  const saved = JSON.parse(await readFile(checkpointOf(first.port), "utf8")) as Record<string, unknown>;
  await writeFile(checkpointOf(port), JSON.stringify({ ...saved, port }), { mode: 0o600 });
  try {
    const attempt = startBridgeProcess({ workspace: home.workspace, configDir: home.configDir, args: ["--port", String(port)] });
    const err: unknown = await attempt.then(
      () => undefined,
      (e: unknown) => e,
    );
    const text = String(err);
    expect(text).toMatch(
      new RegExp(`port ${port} is already in use on 127\\.0\\.0\\.1; is a bridge already running there.*--port 0 for a free one`),
    );
    expect(text).not.toMatch(/restored \d+ session/);
  } finally {
    await new Promise<void>((resolve) => squatter.close(() => resolve()));
  }
});

it("stop stops the bridge for this directory cleanly, and says when there is none", async () => {
  const bridge = await bridgeOn(home);
  const stopped = await runCli(["stop"], { cwd: home.workspace, configDir: home.configDir });
  expect(stopped.code, stopped.stderr).toBe(0);
  expect(await bridge.exited).toEqual({ code: 0, signal: null });
  expect(existsSync(lockOf(bridge.port))).toBe(false);
  expect(bridge.stderr()).toContain("stopping: asked to by POST /shutdown");
  const none = await runCli(["stop", "--port", String(bridge.port)], { cwd: home.workspace, configDir: home.configDir });
  expect(none.code).toBe(1);
  expect(none.stderr).toMatch(/no running bridge on port/);
});
