// The open documents' per-request sync of an unchanged file, as language calls do it before every
// request: the lstat key check (src/lsp/open-documents.ts) against the full read through the jail it
// replaces (the same OpenDocuments given no statFile), on this repository's largest source files,
// in one run, taking turns in blocks so the machine's noise hits both alike.
// Usage: node bench/document-sync.mjs   (BENCH_JSON=1 adds a JSON line for bench/all.mjs)
import { mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { register } from "tsx/esm/api";
import { median } from "./timing.mjs";

register();
const src = (path) => new URL(`../${path}`, import.meta.url).href;
const { createNodeFs } = await import(src("runtime/shared/fs.ts"));
const { createWorkspace } = await import(src("src/security/jail/workspace-jail.ts"));
const { createWorkspaceFs } = await import(src("src/workspace/workspace-fs.ts"));
const { OpenDocuments } = await import(src("src/lsp/open-documents.ts"));

const RUNS = Number(process.env.BENCH_RUNS ?? 2000);
const BLOCK = 100;
const SOURCES = ["src/lsp/language-server.ts", "src/lsp/server-pool.ts", "src/tools/platform/registry.ts"];

const root = mkdtempSync(join(tmpdir(), "bench-docsync-"));
try {
  const fs = createNodeFs();
  const workspace = createWorkspaceFs(fs, await createWorkspace(fs, { root }));
  const paths = SOURCES.map((source, i) => {
    const path = join(root, `file${i}.ts`);
    writeFileSync(path, readFileSync(new URL(`../${source}`, import.meta.url)));
    // Saved a minute ago: quiet, so its key is trusted.
    const past = new Date(Date.now() - 60_000);
    utimesSync(path, past, past);
    return path;
  });
  const connection = { notify: async () => {} };
  const readText = (path) => workspace.readResolvedText(path, { maxBytes: 4 * 1024 * 1024 });
  const keyed = new OpenDocuments(connection, { readText, statFile: (path) => fs.lstat(path) });
  const reading = new OpenDocuments(connection, { readText });
  for (const docs of [keyed, reading]) for (const path of paths) await docs.sync(path, "typescript");
  const times = { keyed: [], reading: [] };
  const time = async (docs, into) => {
    for (let i = 0; i < BLOCK; i++) {
      const path = paths[i % paths.length];
      const t0 = performance.now();
      const { changed } = await docs.sync(path, "typescript");
      into.push(performance.now() - t0);
      if (changed) throw new Error("an unchanged file was sent again");
    }
  };
  for (let done = 0; done < RUNS; done += BLOCK) {
    await time(keyed, times.keyed);
    await time(reading, times.reading);
  }
  const k = median(times.keyed);
  const r = median(times.reading);
  console.log(`key check : median ${(k * 1000).toFixed(0)} us`);
  console.log(`full read : median ${(r * 1000).toFixed(0)} us`);
  console.log(`ratio key/read: ${(k / r).toFixed(2)}x  (${RUNS} syncs each of 3 files of 9-18 KB)`);
  if (process.env.BENCH_JSON === "1") {
    const row = {
      what: "document sync of an unchanged file",
      bridge: `${(k * 1000).toFixed(0)} us`,
      baseline: `full read ${(r * 1000).toFixed(0)} us`,
      ratio: Math.round((k / r) * 100) / 100,
      target: "< 1",
    };
    console.log(`BENCH_ROWS ${JSON.stringify([row])}`);
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}
