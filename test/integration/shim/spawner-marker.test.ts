// The spawner's marker keeps shims that start together from starting a bridge each. The shim that
// started one lifts its marker once it connects, so a shim that looked for a lock just before that
// bridge wrote one finds the marker free: it must look again once the marker is its own, or it starts
// a second bridge for the project (seen in a loaded CI run as a lock left behind after `stop`).
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { createShimLog } from "../../../shim/log.ts";
import { createSpawner } from "../../../shim/spawn-bridge.ts";

let dir: string;
let lockDir: string;
let started: string;
const children: number[] = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "shim-spawner-"));
  lockDir = join(dir, "ide");
  started = join(dir, "started");
  // Stands in for the bridge: records that it ran, and runs on (an exit before the shim connects is a failed start).
  await writeFile(
    join(dir, "bridge.cjs"),
    `require("node:fs").writeFileSync(${JSON.stringify(started)}, "");\nsetInterval(() => {}, 1000);\n`,
  );
});
afterEach(async () => {
  for (const pid of children.splice(0)) process.kill(pid);
  await rm(dir, { recursive: true, force: true });
});

function spawner(bridgeRunning: () => Promise<boolean>) {
  const lines: string[] = [];
  const spawner = createSpawner({
    root: dir,
    lockDir,
    self: { command: process.execPath, args: [join(dir, "bridge.cjs")] },
    bridgeArgs: [],
    idleTimeoutMs: 0,
    log: createShimLog({ verbose: false, write: (line) => lines.push(line) }),
    bridgeRunning,
    onEarlyExit: () => undefined,
  });
  const ensure = async () => {
    await spawner.ensure();
    if (spawner.state.kind === "started" && spawner.state.pid !== undefined) children.push(spawner.state.pid);
  };
  return { spawner, lines, ensure };
}

const markers = async () => (await readdir(lockDir).catch(() => [])).filter((n) => n.endsWith(".pending"));

it("starts no bridge when one appeared between the shim's look and its claim of the marker", async () => {
  const { spawner: s, lines, ensure } = spawner(async () => true);
  await ensure();
  expect(s.state.kind).toBe("none");
  expect(lines.join("\n")).toMatch(/a bridge for this project appeared; not starting another/);
  // The marker is lifted again: it would only hold back the next shim.
  expect(await markers()).toEqual([]);
});

it("starts one when none has appeared, holding the marker until it connects", async () => {
  const { spawner: s, ensure } = spawner(async () => false);
  await ensure();
  expect(s.state.kind).toBe("started");
  expect(await markers()).toHaveLength(1);
  await expect.poll(() => readdir(dir), { timeout: 30_000 }).toContain("started");
  s.connected();
  expect(await markers()).toEqual([]);
});

it("a second shim asked while the first holds the marker waits for it instead", async () => {
  const first = spawner(async () => false);
  await first.ensure();
  expect(first.spawner.state.kind).toBe("started");
  const second = spawner(async () => false);
  await second.ensure();
  expect(second.spawner.state.kind).toBe("another-shim");
  first.spawner.connected();
});
