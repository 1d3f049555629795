// The file watcher (runtime/shared/watch.ts, Fs.watch) held to one contract on node, bun and deno:
// the probe (fixtures/probe-watch.ts) changes a watched temp dir under each runtime and reports the
// events each change brought. Deno reports some events twice, so the checks ask for what must be
// there rather than for exact lists. That the watcher does not keep a process alive is checked
// with the processGroup child in runtime-spawn.test.ts (fixtures/lifetime-probe.ts).
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../helpers/spawn-bridge.ts";
import { startProcess, stopAll, type Started } from "./process.ts";
import { assertRuntimesInstalled, RUNTIMES, scriptCommand } from "./runtimes.ts";

const PROBE = join(REPO_ROOT, "test", "contract", "fixtures", "runtime-probe.ts");

beforeAll(() => assertRuntimesInstalled());
afterAll(() => stopAll());

type Steps = Record<"create" | "modify" | "rename" | "remove" | "nested" | "afterClose", string[]>;

describe.each(RUNTIMES)("fs watch on %s", (runtime) => {
  let probe: Started;
  let get: <T>(path: string) => Promise<T>;

  beforeAll(async () => {
    probe = await startProcess(scriptCommand(runtime, PROBE), { ready: /PROBE_PORT=(\d+)/ });
    const base = `http://127.0.0.1:${probe.ready[1]}`;
    get = async <T>(path: string) => (await (await fetch(`${base}${path}`)).json()) as T;
  });

  afterAll(async () => {
    await probe?.stop();
  });

  it.each(["flat", "recursive"])("reports create, modify, rename and delete (%s), and nothing after close()", async (mode) => {
    const steps = await get<Steps>(`/watch/steps/${mode}`);
    expect(steps.create).toContain("rename:a");
    expect(steps.modify).toContain("change:m");
    expect(steps.rename).toEqual(expect.arrayContaining(["rename:a", "rename:b"]));
    expect(steps.remove).toContain("rename:m");
    expect(steps.afterClose).toEqual([]);
    if (mode === "recursive") {
      expect(steps.nested).toContain("rename:sub/c");
    } else {
      // The marker written after sub/c arrived; sub/c did not, under any name.
      expect(steps.nested).toContain("rename:marker");
      expect(steps.nested.filter((e) => e.endsWith("c"))).toEqual([]);
    }
  });

  it("refuses a missing path at once with ENOENT", async () => {
    expect(await get("/watch/missing")).toEqual({ name: "RuntimeError", code: "ENOENT" });
  });
});
