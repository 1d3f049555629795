// A kept answer proven by the watcher first (src/services/diagnostics/kept-answers.ts with
// src/lsp/unchanged-memo.ts's proof): with a scripted watcher that watches every folder of the
// workspace and tells the changes the test says it heard, a warm lookup reads no file at all; a
// change heard to an input drops the answer, a change elsewhere does not; an input the watcher
// does not hear (a skipped build output) is proven by its content; where the watcher cannot vouch
// the content proof decides; a run whose inputs were heard changing while it ran is not kept.
import { readdirSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TouchedPath, UnchangedMemo } from "../../../../src/lsp/unchanged-memo.ts";
import { type KeptContext, KeptAnswers } from "../../../../src/services/diagnostics/kept-answers.ts";
import { tempWorkspaces, type TempWorkspaces } from "../../../helpers/temp-workspace.ts";
import { makeToolContext } from "../../../helpers/tool-context.ts";

let temp: TempWorkspaces;
beforeAll(async () => {
  temp = await tempWorkspaces("cib-kept-watched-");
});
afterAll(async () => {
  await temp.remove();
});

const FILES = {
  "package.json": JSON.stringify({ name: "p", type: "module" }),
  "tsconfig.json": JSON.stringify({ include: ["src"] }),
  "src/a.ts": "export const a = 1;\n",
  "src/b.ts": 'import { a } from "./a.js";\nexport const b = a;\n',
  "dist/types/c.d.ts": "export declare const c: number;\n",
  "docs/readme.md": "notes\n",
};
const SKIPPED = new Set(["node_modules", "dist"]);

/**
 * A workspace, a memo over a scripted watcher (every folder but skipped trees watched in full, as
 * the real one does), and a context whose file reads are counted.
 */
async function watched(name: string) {
  const root = await temp.make(name, FILES);
  const base = await makeToolContext(root);
  const watcher = {
    truncated: false,
    vouches: true,
    async settled() {},
    watched(dir: string) {
      if (dir !== root && !dir.startsWith(`${root}/`)) return undefined;
      if (
        dir
          .slice(root.length)
          .split("/")
          .some((part) => SKIPPED.has(part))
      )
        return undefined;
      try {
        return { all: true, names: new Set(readdirSync(dir)) };
      } catch {
        return undefined;
      }
    },
  };
  const memo = new UnchangedMemo({ vouches: true, watcher: () => (watcher.vouches ? watcher : undefined) });
  let reads = 0;
  const fs = new Proxy(base.fs, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (typeof value !== "function" || !["stat", "list", "readBytes", "readText", "lstat"].includes(String(prop))) return value;
      return (...args: unknown[]) => {
        reads += 1;
        return value.apply(target, args);
      };
    },
  });
  const ctx: KeptContext = { fs, lsp: { watchProof: () => memo.proof() } };
  const heard = (changes: readonly TouchedPath[]) => memo.changed(changes.map((c) => ({ ...c, path: join(root, c.path) })));
  return { root, ctx, memo, watcher, heard, reads: () => reads };
}

const run = { files: ["src/a.ts", "src/b.ts"], configs: ["tsconfig.json"], readsOutside: false };

describe("a kept answer the watcher vouches for", () => {
  it("is kept from its first run and given back without reading a file", async () => {
    const w = await watched("first-run");
    const kept = new KeptAnswers<string>(8);
    await kept.keep(w.ctx, "p", { ...run, value: "first", start: await kept.start(w.ctx, "p") });
    const before = w.reads();
    expect(await kept.lookup(w.ctx, "p")).toBe("first");
    expect(await kept.lookup(w.ctx, "p")).toBe("first");
    expect(w.reads()).toBe(before);
  });

  it("is dropped when a change to one of its inputs is heard, and not for a change elsewhere", async () => {
    const w = await watched("heard");
    const kept = new KeptAnswers<string>(8);
    await kept.keep(w.ctx, "p", { ...run, value: "kept", start: await kept.start(w.ctx, "p") });
    w.heard([{ path: "docs/readme.md", type: 2 }]);
    expect(await kept.lookup(w.ctx, "p")).toBe("kept");
    // The watcher's word alone: the content is the same, but a change was heard.
    w.heard([{ path: "src/a.ts", type: 2 }]);
    expect(await kept.lookup(w.ctx, "p")).toBeUndefined();
  });

  it("is dropped when a file appears beside its files (its folder's names changed)", async () => {
    const w = await watched("created");
    const kept = new KeptAnswers<string>(8);
    await kept.keep(w.ctx, "p", { ...run, value: "kept", start: await kept.start(w.ctx, "p") });
    w.heard([{ path: "src/c.ts", type: 1 }]);
    expect(await kept.lookup(w.ctx, "p")).toBeUndefined();
  });

  it("is not kept when one of its inputs was heard changing while it ran", async () => {
    const w = await watched("raced");
    const kept = new KeptAnswers<string>(8);
    const start = await kept.start(w.ctx, "p");
    w.heard([{ path: "src/b.ts", type: 2 }]);
    await kept.keep(w.ctx, "p", { ...run, value: "raced", start });
    expect(await kept.lookup(w.ctx, "p")).toBeUndefined();
  });

  it("proves an input the watcher does not hear (a skipped build output) by its content", async () => {
    const w = await watched("unheard");
    const kept = new KeptAnswers<string>(8);
    const refused = { ...run, files: ["src/a.ts", "dist/types/c.d.ts"] };
    // Its first run has no content of the unheard output from before it: not kept.
    await kept.keep(w.ctx, "p", { ...refused, value: "first", start: await kept.start(w.ctx, "p") });
    expect(await kept.lookup(w.ctx, "p")).toBeUndefined();
    await kept.keep(w.ctx, "p", { ...refused, value: "second", start: await kept.start(w.ctx, "p") });
    expect(await kept.lookup(w.ctx, "p")).toBe("second");
    // Nothing heard, but the content changed.
    await writeFile(join(w.root, "dist/types/c.d.ts"), "export declare const c: string;\n");
    expect(await kept.lookup(w.ctx, "p")).toBeUndefined();
  });

  it("falls back to the content proof where the watcher cannot vouch", async () => {
    const w = await watched("not-vouched");
    const kept = new KeptAnswers<string>(8);
    await kept.keep(w.ctx, "p", { ...run, value: "kept", start: await kept.start(w.ctx, "p") });
    w.watcher.vouches = false;
    // Kept at a generation with no content taken: nothing proves it now.
    expect(await kept.lookup(w.ctx, "p")).toBeUndefined();
    await kept.keep(w.ctx, "p", { ...run, value: "by content", start: await kept.start(w.ctx, "p") });
    expect(await kept.lookup(w.ctx, "p")).toBe("by content");
    await writeFile(join(w.root, "src/b.ts"), "export const b = 2;\n");
    expect(await kept.lookup(w.ctx, "p")).toBeUndefined();
  });

  it("is dropped when what changed since it was kept is no longer known (a change told without its paths)", async () => {
    const w = await watched("forgotten");
    const kept = new KeptAnswers<string>(8);
    await kept.keep(w.ctx, "p", { ...run, value: "kept", start: await kept.start(w.ctx, "p") });
    w.memo.changed();
    expect(await kept.lookup(w.ctx, "p")).toBeUndefined();
  });

  it("keeps an answer over every file (a linter's) only while no change at all is heard, and never where the watcher cannot vouch", async () => {
    const w = await watched("everything");
    const kept = new KeptAnswers<string>(8);
    const lint = { files: [], configs: ["eslint.config.mjs", "package.json"], readsOutside: false, everything: true };
    await kept.keep(w.ctx, "lint", { ...lint, value: "failed", start: await kept.start(w.ctx, "lint") });
    expect(await kept.lookup(w.ctx, "lint")).toBe("failed");
    w.heard([{ path: "docs/readme.md", type: 2 }]);
    expect(await kept.lookup(w.ctx, "lint")).toBeUndefined();
    w.watcher.vouches = false;
    await kept.keep(w.ctx, "lint", { ...lint, value: "unproven", start: await kept.start(w.ctx, "lint") });
    expect(await kept.lookup(w.ctx, "lint")).toBeUndefined();
  });
});
