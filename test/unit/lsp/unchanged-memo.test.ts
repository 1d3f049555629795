// A kept answer is only as good as the watcher's word that nothing changed: reused while the
// generation stands, computed again after any change (including one still in the watcher's pending
// batch, or still in the kernel's queue when the call comes), never kept where the watcher cannot
// vouch (not started, truncated, another runtime) or when the caller says the value is not worth it.
import { renameSync, writeFileSync } from "node:fs";
import { mkdir, mkdtemp, rename, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createNodeRuntime } from "../../../runtime/node.ts";
import { UnchangedMemo } from "../../../src/lsp/unchanged-memo.ts";
import { WorkspaceWatcher } from "../../../src/lsp/workspace-watcher.ts";

/** A watcher stand-in whose pending batch (`pending`) is told when settled() is awaited. */
function fakeWatcher() {
  const state = { truncated: false, pending: false, memo: undefined as UnchangedMemo | undefined };
  return Object.assign(state, {
    async settled() {
      if (state.pending) state.memo?.changed();
      state.pending = false;
    },
  });
}

function counting() {
  let runs = 0;
  return { compute: async () => ++runs, runs: () => runs };
}

const always = { keep: () => true };

describe("UnchangedMemo", () => {
  it("reuses a value until something changes, and computes again after", async () => {
    const watcher = fakeWatcher();
    const memo = new UnchangedMemo({ vouches: true, watcher: () => watcher });
    const c = counting();
    expect(await memo.get("a", c.compute, always)).toBe(1);
    expect(await memo.get("a", c.compute, always)).toBe(1);
    memo.changed();
    expect(await memo.get("a", c.compute, always)).toBe(2);
    expect(await memo.get("b", c.compute, always)).toBe(3);
  });

  it("counts a change still in the watcher's pending batch", async () => {
    const watcher = fakeWatcher();
    const memo = new UnchangedMemo({ vouches: true, watcher: () => watcher });
    watcher.memo = memo;
    const c = counting();
    await memo.get("a", c.compute, always);
    watcher.pending = true;
    expect(await memo.get("a", c.compute, always)).toBe(2);
  });

  it("keeps nothing where it cannot vouch, or when the caller does not want it kept", async () => {
    const watcher = fakeWatcher();
    const cases = [
      new UnchangedMemo({ vouches: false, watcher: () => watcher }),
      new UnchangedMemo({ vouches: true, watcher: () => undefined }),
      new UnchangedMemo({ vouches: true, watcher: () => ({ ...watcher, truncated: true }) }),
    ];
    for (const memo of cases) {
      const c = counting();
      await memo.get("a", c.compute, always);
      expect(await memo.get("a", c.compute, always)).toBe(2);
    }
    const memo = new UnchangedMemo({ vouches: true, watcher: () => watcher });
    const c = counting();
    await memo.get("a", c.compute, { keep: () => false });
    expect(await memo.get("a", c.compute, always)).toBe(2);
    expect(await memo.get("a", c.compute, always)).toBe(2);
  });

  it("with the real watcher, sees a write made just before the call (in place, renamed over, in a new folder)", async () => {
    const runtime = createNodeRuntime();
    const root = await mkdtemp(join(tmpdir(), "unchanged-memo-"));
    let watcher: WorkspaceWatcher | undefined;
    try {
      await mkdir(join(root, "src"));
      await writeFile(join(root, "src", "a.ts"), "0");
      const memo = new UnchangedMemo({ vouches: true, watcher: () => watcher });
      watcher = new WorkspaceWatcher(runtime.fs, () => memo.changed());
      await watcher.start([root]);
      const c = counting();
      let expected = await memo.get("a", c.compute, always);
      expect(await memo.get("a", c.compute, always)).toBe(expected);
      const writes = [
        (i: number) => writeFile(join(root, "src", "a.ts"), String(i)),
        async (i: number) => {
          await writeFile(join(root, "src", `.a.ts.${i}.tmp`), String(i));
          await rename(join(root, "src", `.a.ts.${i}.tmp`), join(root, "src", "a.ts"));
        },
        async (i: number) => {
          await mkdir(join(root, `new${i}`));
          await writeFile(join(root, `new${i}`, "b.ts"), String(i));
        },
        // In this very turn of the event loop: the event is in the kernel's queue, not yet read.
        async (i: number) => writeFileSync(join(root, "src", "a.ts"), `sync ${i}`),
        async (i: number) => renameSync(join(root, "src", "a.ts"), join(root, "src", `moved${i}.ts`)),
      ];
      for (let i = 0; i < 25; i++) {
        await writes[i % writes.length]?.(i);
        // Asked at once: the event may still be in the kernel's queue or the watcher's batch.
        expected += 1;
        expect(await memo.get("a", c.compute, always)).toBe(expected);
        expect(await memo.get("a", c.compute, always)).toBe(expected);
      }
    } finally {
      watcher?.close();
      await rm(root, { recursive: true, force: true });
    }
  });

  it("with the real watcher, its proof says which paths it hears and which changed since a generation", async () => {
    const runtime = createNodeRuntime();
    const root = await mkdtemp(join(tmpdir(), "unchanged-memo-proof-"));
    let watcher: WorkspaceWatcher | undefined;
    try {
      for (const dir of ["src", "dist", "node_modules/pkg"]) await mkdir(join(root, dir), { recursive: true });
      for (const file of ["src/a.ts", "src/b.ts", "dist/a.d.ts", "node_modules/.package-lock.json", "node_modules/pkg/index.d.ts"])
        await writeFile(join(root, file), "0");
      const memo = new UnchangedMemo({ vouches: true, watcher: () => watcher });
      watcher = new WorkspaceWatcher(runtime.fs, (changes) => memo.changed(changes));
      await watcher.start([root]);
      const first = await memo.proof();
      if (first === undefined) throw new Error("the watcher should vouch");
      const at = (path: string) => join(root, path);
      const hears = (paths: string[]) => Promise.all(paths.map((p) => first.hears(p)));
      expect(await hears(["src/a.ts", "src", "missing/deeper/x.ts", "node_modules/pkg/index.d.ts", "node_modules"].map(at))).toEqual([
        true,
        true,
        true,
        true,
        true,
      ]);
      // A skipped build output: what is written there is not heard.
      expect(await hears([at("dist/a.d.ts"), at("dist"), "/elsewhere/x.ts"])).toEqual([false, false, false]);
      writeFileSync(at("src/a.ts"), "1");
      const second = await memo.proof();
      const changed = second?.changesSince(first.generation);
      expect([at("src/a.ts"), at("src/b.ts"), at("src")].map((p) => changed?.touches(p))).toEqual([true, false, false]);
      await writeFile(at("src/c.ts"), "2");
      expect((await memo.proof())?.changesSince(first.generation)?.touches(at("src"))).toBe(true);
      // A package install rewrites the lock file: every file below that node_modules counts as changed.
      const installed = (await memo.proof())?.generation ?? 0;
      await writeFile(at("node_modules/.package-lock.json"), "1");
      expect((await memo.proof())?.changesSince(installed)?.touches(at("node_modules/pkg/index.d.ts"))).toBe(true);
    } finally {
      watcher?.close();
      await rm(root, { recursive: true, force: true });
    }
  });
});
