// A kept answer proven by the watcher first (src/services/diagnostics/kept-answers.ts with
// src/lsp/unchanged-memo.ts's proof): with the real watcher on the workspace, and changes the test
// tells the memo it heard, a warm lookup reads no file at all; a change heard to an input drops the
// answer, a change elsewhere does not; an input the watcher does not hear (a skipped build output)
// is proven by its content; where the watcher cannot vouch the content proof decides; a run whose
// inputs were heard changing while it ran is not kept. An input linked from outside the workspace
// (a package linked into node_modules, a file linked out) is not heard where it really is, so it is
// not taken on the watcher's word: changed out there, the answer is not given back.
import { mkdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { keeper, keptWorkspaces } from "../../../helpers/kept-answers.ts";

const workspaces = keptWorkspaces("cib-kept-watched-");

const FILES = {
  "package.json": JSON.stringify({ name: "p", type: "module" }),
  "tsconfig.json": JSON.stringify({ include: ["src"] }),
  "src/a.ts": "export const a = 1;\n",
  "src/b.ts": 'import { a } from "./a.js";\nexport const b = a;\n',
  "dist/types/c.d.ts": "export declare const c: number;\n",
  "docs/readme.md": "notes\n",
};

/** A workspace the real watcher vouches for, and a store of answers asked through it. */
async function watched(name: string, prepare?: (root: string) => Promise<void>) {
  const w = await workspaces.watched(name, { files: FILES, ...(prepare ? { prepare } : {}) });
  return { w, k: keeper<string>(w.ctx) };
}

const run = { files: ["src/a.ts", "src/b.ts"], configs: ["tsconfig.json"], readsOutside: false };

describe("a kept answer the watcher vouches for", () => {
  it("is kept from its first run and given back without reading a file", async () => {
    const { w, k } = await watched("first-run");
    await k.run("p", { ...run, value: "first" });
    const before = w.reads();
    expect(await k.lookup("p")).toBe("first");
    expect(await k.lookup("p")).toBe("first");
    expect(w.reads()).toBe(before);
  });

  it("is dropped when a change to one of its inputs is heard, and not for a change elsewhere", async () => {
    const { w, k } = await watched("heard");
    await k.run("p", { ...run, value: "kept" });
    w.heard([{ path: "docs/readme.md", type: 2 }]);
    expect(await k.lookup("p")).toBe("kept");
    // The watcher's word alone: the content is the same, but a change was heard.
    w.heard([{ path: "src/a.ts", type: 2 }]);
    expect(await k.lookup("p")).toBeUndefined();
  });

  it("is dropped when a file appears beside its files (its folder's names changed)", async () => {
    const { w, k } = await watched("created");
    await k.run("p", { ...run, value: "kept" });
    w.heard([{ path: "src/c.ts", type: 1 }]);
    expect(await k.lookup("p")).toBeUndefined();
  });

  it("is not kept when one of its inputs was heard changing while it ran", async () => {
    const { w, k } = await watched("raced");
    const start = await k.kept.start(w.ctx, "p");
    w.heard([{ path: "src/b.ts", type: 2 }]);
    await k.kept.keep(w.ctx, "p", { ...run, value: "raced", start });
    expect(await k.lookup("p")).toBeUndefined();
  });

  it("proves an input the watcher does not hear (a skipped build output) by its content", async () => {
    const { w, k } = await watched("unheard");
    const refused = { ...run, files: ["src/a.ts", "dist/types/c.d.ts"] };
    // Its first run has no content of the unheard output from before it: not kept.
    await k.run("p", { ...refused, value: "first" });
    expect(await k.lookup("p")).toBeUndefined();
    await k.run("p", { ...refused, value: "second" });
    expect(await k.lookup("p")).toBe("second");
    // Nothing heard, but the content changed.
    await writeFile(join(w.root, "dist/types/c.d.ts"), "export declare const c: string;\n");
    expect(await k.lookup("p")).toBeUndefined();
  });

  it("falls back to the content proof where the watcher cannot vouch", async () => {
    const { w, k } = await watched("not-vouched");
    await k.run("p", { ...run, value: "kept" });
    w.vouches = false;
    // Kept at a generation with no content taken: nothing proves it now.
    expect(await k.lookup("p")).toBeUndefined();
    await k.run("p", { ...run, value: "by content" });
    expect(await k.lookup("p")).toBe("by content");
    await writeFile(join(w.root, "src/b.ts"), "export const b = 2;\n");
    expect(await k.lookup("p")).toBeUndefined();
  });

  it("is dropped when what changed since it was kept is no longer known (a change told without its paths)", async () => {
    const { w, k } = await watched("forgotten");
    await k.run("p", { ...run, value: "kept" });
    w.memo.changed();
    expect(await k.lookup("p")).toBeUndefined();
  });

  it("keeps an answer over every file (a linter's) only while no change at all is heard, and never where the watcher cannot vouch", async () => {
    const { w, k } = await watched("everything");
    const lint = { files: [], configs: ["eslint.config.mjs", "package.json"], readsOutside: false, everything: true };
    await k.run("lint", { ...lint, value: "failed" });
    expect(await k.lookup("lint")).toBe("failed");
    w.heard([{ path: "docs/readme.md", type: 2 }]);
    expect(await k.lookup("lint")).toBeUndefined();
    w.vouches = false;
    await k.run("lint", { ...lint, value: "unproven" });
    expect(await k.lookup("lint")).toBeUndefined();
  });
});

describe("a kept answer with an input linked from outside the workspace", () => {
  /** Kept twice over `files` in a workspace where `link` (root-relative) leads to a folder outside it; that folder's `changed` file rewritten after. */
  async function keptThenChangedOutside(
    name: string,
    opts: { files: string[]; link: string; target: string; changed: string; late?: boolean },
  ) {
    const elsewhere = await workspaces.make(`${name}-elsewhere`, { "package.json": JSON.stringify({ name: "linked" }), "x.ts": "1" });
    // A node_modules watched at its top, as after an install: what is below it is heard through its lock file.
    const { k } = await watched(name, async (root) => {
      await mkdir(join(root, "node_modules/@acme"), { recursive: true });
      await writeFile(join(root, "node_modules/.package-lock.json"), "{}");
      if (opts.late !== true) await symlink(join(elsewhere, opts.target), join(root, opts.link));
    });
    // Linked once the watcher runs: node_modules' top is watched for its lock files alone, so no event tells it.
    if (opts.late === true) await symlink(join(elsewhere, opts.target), join(k.ctx.fs.root, opts.link));
    const linked = { ...run, files: opts.files };
    for (let i = 0; i < 2; i++) await k.run("p", { ...linked, value: "kept" });
    await writeFile(join(elsewhere, opts.changed), "changed out there");
    return k.lookup("p");
  }

  it("is not given back after a change in a package linked into node_modules from outside (a file: dependency, npm link)", async () => {
    const found = await keptThenChangedOutside("package-linked", {
      files: ["src/a.ts"],
      link: "node_modules/linked",
      target: "",
      changed: "x.ts",
    });
    expect(found).toBeUndefined();
  });

  it("is not given back after a change in a package linked into node_modules from outside once the watcher ran", async () => {
    const found = await keptThenChangedOutside("package-linked-late", {
      files: ["src/a.ts"],
      link: "node_modules/@acme/linked",
      target: "",
      changed: "x.ts",
      late: true,
    });
    expect(found).toBeUndefined();
  });

  it("is not given back after a change in the target of a source file linked out of the workspace", async () => {
    const found = await keptThenChangedOutside("file-linked", {
      files: ["src/a.ts", "src/linked.ts"],
      link: "src/linked.ts",
      target: "x.ts",
      changed: "x.ts",
    });
    expect(found).toBeUndefined();
  });
});
