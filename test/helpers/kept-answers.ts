// What the unit tests of kept answers (src/services/diagnostics/kept-answers.ts) share: temporary
// workspaces removed after the file's tests; a context over one with the content proof alone (no
// watcher, as makeToolContext gives) or with the real workspace watcher's proof (UnchangedMemo over
// a WorkspaceWatcher on the workspace, closed after the file's tests); and a store of answers whose
// runs are taken and kept in one call.
import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import { createNodeRuntime } from "../../runtime/node.ts";
import { type TouchedPath, UnchangedMemo } from "../../src/lsp/unchanged-memo.ts";
import { WorkspaceWatcher } from "../../src/lsp/workspace-watcher.ts";
import { type KeptContext, KeptAnswers, type Run } from "../../src/services/diagnostics/kept-answers.ts";
import { type TempWorkspaces, tempWorkspaces } from "./temp-workspace.ts";
import { makeToolContext } from "./tool-context.ts";

/** A store of kept answers and the context it is asked with. */
export interface Keeper<T> {
  kept: KeptAnswers<T>;
  ctx: KeptContext;
  /** One run of `key`: its start taken now, then kept (or not) with what it read. */
  run(key: string, run: Omit<Run<T>, "start">): Promise<void>;
  lookup(key: string): Promise<T | undefined>;
}

export function keeper<T>(ctx: KeptContext, max = 8): Keeper<T> {
  const kept = new KeptAnswers<T>(max);
  return {
    kept,
    ctx,
    run: async (key, run) => kept.keep(ctx, key, { ...run, start: await kept.start(ctx, key) }),
    lookup: (key) => kept.lookup(ctx, key),
  };
}

/** A workspace whose kept answers the real watcher vouches for. */
export interface WatchedWorkspace {
  root: string;
  ctx: KeptContext;
  memo: UnchangedMemo;
  /** Whether the watcher vouches (false: as on a runtime where it cannot, the content proof alone). */
  vouches: boolean;
  /** Tells the memo of changes (root-relative) as if the watcher heard them, with no file touched. */
  heard(changes: readonly TouchedPath[]): void;
  /** File system calls made through ctx.fs so far. */
  reads(): number;
}

/** A workspace's files, and what is done to it once they are written. */
interface Made {
  files: Record<string, string>;
  prepare?(root: string): Promise<void>;
}

/** Temporary workspaces for one test file, removed (and their watchers closed) after its tests. */
export function keptWorkspaces(prefix: string) {
  let temp: TempWorkspaces | undefined;
  const watchers: WorkspaceWatcher[] = [];
  beforeAll(async () => {
    temp = await tempWorkspaces(prefix);
  });
  afterAll(async () => {
    for (const watcher of watchers) watcher.close();
    await temp?.remove();
  });
  const make = (name: string, files: Record<string, string>) => {
    if (temp === undefined) throw new Error("keptWorkspaces: used outside a test");
    return temp.make(name, files);
  };
  return {
    make,
    /** A workspace with `files` (`prepare` run on it then) and a context with the content proof alone. */
    async plain(name: string, opts: Made) {
      const root = await make(name, opts.files);
      await opts.prepare?.(root);
      return { root, ctx: await makeToolContext(root) };
    },
    /** A workspace with `files` (`prepare` run on it before the watcher starts) and a context with the watcher's proof. */
    async watched(name: string, opts: Made): Promise<WatchedWorkspace> {
      const root = await make(name, opts.files);
      await opts.prepare?.(root);
      const base = await makeToolContext(root);
      let memo: UnchangedMemo | undefined;
      const watcher = new WorkspaceWatcher(createNodeRuntime().fs, (changes) => memo?.changed(changes));
      watchers.push(watcher);
      await watcher.start([root]);
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
      const w: WatchedWorkspace = {
        root,
        ctx: { fs, lsp: { watchProof: () => memo?.proof() ?? Promise.resolve(undefined) } },
        memo: new UnchangedMemo({ vouches: true, watcher: () => (w.vouches ? watcher : undefined) }),
        vouches: true,
        heard: (changes) => w.memo.changed(changes.map((c) => ({ ...c, path: join(root, c.path) }))),
        reads: () => reads,
      };
      memo = w.memo;
      return w;
    },
  };
}
