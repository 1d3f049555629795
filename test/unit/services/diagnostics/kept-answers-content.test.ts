// A run kept under the content proof alone (src/services/diagnostics/kept-answers.ts: where the
// watcher cannot vouch, as here, no watcher running), as an edit check's compiler run is kept for
// the next edit: given back while the content of what it read is the same, so a file written a moment before the run is
// no reason to refuse it; refused when an input changed while it ran, and dropped when one changes
// afterwards, a same-size rewrite that keeps the modification time included.
import { stat, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { keeper, keptWorkspaces } from "../../../helpers/kept-answers.ts";

const workspaces = keptWorkspaces("cib-kept-runs-");

const FILES = {
  "package.json": JSON.stringify({ name: "p", type: "module" }),
  "tsconfig.json": JSON.stringify({ include: ["src"] }),
  "src/a.ts": "export const a = 1;\n",
  "src/b.ts": 'import { a } from "./a.js";\nexport const b = a;\n',
};
const run = { files: ["src/a.ts", "src/b.ts"], configs: ["tsconfig.json"], readsOutside: false };

/** A workspace whose project ran once (so the next run has a snapshot to compare), and the runs' store. */
async function ranOnce(name: string) {
  const { root, ctx } = await workspaces.plain(name, { files: FILES });
  const k = keeper<string>(ctx);
  await k.run("p", { ...run, value: "first" });
  return { root, ctx, kept: k.kept, k };
}

describe("a kept compiler run", () => {
  it("is not kept without a snapshot from before it started, and is once the project ran before", async () => {
    const { k } = await ranOnce("first-run");
    expect(await k.lookup("p")).toBeUndefined();
    await k.run("p", { ...run, value: "second" });
    expect(await k.lookup("p")).toBe("second");
  });

  it("is kept though a file it read was written just before it started (the edit's own write)", async () => {
    const { root, k } = await ranOnce("just-written");
    await writeFile(join(root, "src/a.ts"), "export const a = 2;\n");
    await k.run("p", { ...run, value: "after the edit" });
    expect(await k.lookup("p")).toBe("after the edit");
  });

  it("is not kept when an input changed while it ran", async () => {
    const { root, ctx, kept } = await ranOnce("changed-while-running");
    const start = await kept.start(ctx, "p");
    await writeFile(join(root, "src/b.ts"), 'import { a } from "./a.js";\nexport const b = a + 1;\n');
    await kept.keep(ctx, "p", { ...run, value: "raced", start });
    expect(await kept.lookup(ctx, "p")).toBeUndefined();
  });

  it("is dropped after a same-size rewrite that keeps the modification time, and after a file appears beside its files", async () => {
    const { root, k } = await ranOnce("rewritten");
    await k.run("p", { ...run, value: "kept" });
    const path = join(root, "src/a.ts");
    const was = await stat(path);
    await writeFile(path, "export const a = 9;\n");
    await utimes(path, was.atime, was.mtime);
    expect(await k.lookup("p")).toBeUndefined();
    await k.run("p", { ...run, value: "kept again" });
    expect(await k.lookup("p")).toBe("kept again");
    await writeFile(join(root, "src/c.ts"), "export const c = 3;\n");
    expect(await k.lookup("p")).toBeUndefined();
  });

  it("is not kept when its program read files outside the workspace", async () => {
    const { k } = await ranOnce("reads-outside");
    await k.run("p", { ...run, readsOutside: true, value: "outside" });
    expect(await k.lookup("p")).toBeUndefined();
  });
});
