// The built-in search engine against rg on a generated tree big enough for its batching to matter:
// directories of more files than one read chunk, files of a directory interleaved in path order with
// its subdirectories', more directories than the walk lists ahead, ignored, hidden, binary, empty,
// CRLF and unicode files, a FIFO and symlinks. Byte for byte the same answers; and the batched
// reader (the worker-thread one of the Node runtime, and the one-by-one one of a runtime without
// DirHandle.readFiles) gives exactly each regular file's bytes and nothing for anything else.
import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, readFile, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createNodeRuntime } from "../../../runtime/node.ts";
import type { DirHandle, Fs } from "../../../src/ports/fs.ts";
import { createWorkspace } from "../../../src/security/jail/workspace-jail.ts";
import searchWorkspace from "../../../src/tools/search/search-workspace.ts";
import { createWorkspaceFs } from "../../../src/workspace/workspace-fs.ts";
import { makeToolContext, type TestToolContext } from "../../helpers/tool-context.ts";

let base: string;
let root: string;
let withRg: TestToolContext;
let withoutRg: TestToolContext;
const runtime = createNodeRuntime();
/** Every file written, root-relative, with what it holds. */
const written = new Map<string, string>();

async function put(rel: string, content: string): Promise<void> {
  await mkdir(join(root, rel, ".."), { recursive: true });
  await writeFile(join(root, rel), content);
  written.set(rel, content);
}

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), "cib-search-tree-")));
  root = join(base, "ws");
  await mkdir(root);
  await writeFile(join(base, "outside.txt"), "needle outside the workspace\n");
  await put(".gitignore", "*.log\nbuild/\n!keep.log\n");
  for (let d = 0; d < 14; d++) {
    // 75 files: three read chunks; "m3/a.ts" sorts before "m3/a/x.ts", "m3/b.ts" after it.
    const dir = `src/m${d}`;
    for (let f = 0; f < 75; f++) {
      const rare = f % 37 === d % 5 ? `const needle${d}_${f} = "needleRare";\r\n` : "";
      await put(`${dir}/f${String(f).padStart(2, "0")}.ts`, `export const v${f} = ${d * f};\r\n${rare}// return ${f}\n`);
    }
    await put(`${dir}/a.ts`, "needle before a/\n");
    await put(`${dir}/a/x.ts`, "needle inside a/\nreturn needle\n");
    await put(`${dir}/b.ts`, "needle after a/\n");
    await put(`${dir}/out.log`, "needle ignored\n");
    await put(`${dir}/keep.log`, "needle kept\n");
    await put(`${dir}/.hidden.ts`, "needle hidden\n");
    await put(`${dir}/empty.ts`, "");
    await put(`${dir}/bin.dat`, `needle before\n${"\0"}needle after binary\n`);
    await put(`${dir}/ünï-${d}.txt`, `naïve needle café ${d}\n😀 needle\n`);
  }
  await put("build/x.ts", "needle build\n");
  await put(".config/c.ts", "needle config\n");
  await put("no-newline.txt", "needle at the end");
  execFileSync("mkfifo", [join(root, "src", "m0", "fifo.ts")]);
  await symlink(join(base, "outside.txt"), join(root, "src", "m1", "link-out.ts"));
  await symlink(join(root, "src", "m2"), join(root, "src", "link-dir"));
  withRg = await makeToolContext(root, { executables: ["rg"] });
  withoutRg = await makeToolContext(root, {
    executables: ["rg"],
    runtime: { ...runtime, which: async (cmd) => (cmd === "rg" ? undefined : runtime.which(cmd)) },
  });
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

const search = async (ctx: TestToolContext, args: Record<string, unknown>) => {
  const input = {
    path: ".",
    include: [],
    exclude: [],
    includeHidden: false,
    includeIgnored: false,
    literal: false,
    caseSensitive: true,
    contextLines: 0,
    maxResults: 5000,
    ...args,
  };
  return (await searchWorkspace.handlers.headless?.(input, ctx)) as string;
};

describe("the built-in search on a generated tree", () => {
  const queries: Record<string, unknown>[] = [
    { pattern: "needleRare" },
    { pattern: "needle\\d+_\\d+" },
    { pattern: "needle" },
    { pattern: "needle", maxResults: 40 },
    { pattern: "NEEDLE", caseSensitive: false, includeHidden: true },
    { pattern: "needle", includeIgnored: true, includeHidden: true },
    { pattern: "return", contextLines: 1, maxResults: 300 },
    { pattern: "café|😀", path: "src" },
    { pattern: "end$" },
    { pattern: "nothing-matches-this" },
  ];
  it.each(queries.map((q) => [JSON.stringify(q), q]))("%s: the same answer as rg", async (_name, query) => {
    const viaRg = await search(withRg, query as Record<string, unknown>);
    expect(await search(withoutRg, query as Record<string, unknown>)).toBe(viaRg);
  });
});

describe("readMany", () => {
  /** The Node runtime's fs with DirHandle.readFiles taken away: the one-by-one reader. */
  const withoutReadFiles = (fs: Fs): Fs => ({
    ...fs,
    openDirectory: async (path: string): Promise<DirHandle> => {
      const handle = await fs.openDirectory(path);
      return { ...handle, readFiles: undefined };
    },
  });

  /** A runtime whose batch reader fails (its worker could not start): readMany reads one by one. */
  const failingReadFiles = (fs: Fs): Fs => ({
    ...fs,
    openDirectory: async (path: string): Promise<DirHandle> => {
      const handle = await fs.openDirectory(path);
      return { ...handle, readFiles: () => Promise.reject(new Error("the file-reading worker exited")) };
    },
  });

  it.each([
    ["in a worker thread", (fs: Fs) => fs],
    ["one file at a time", withoutReadFiles],
    ["one file at a time after the batch reader failed", failingReadFiles],
  ])("reads %s each regular file's bytes, and nothing for a FIFO, a symlink, a directory or a missing file", async (_name, adapt) => {
    const fs = adapt(runtime.fs);
    const ws = createWorkspaceFs(fs, await createWorkspace(fs, { root }));
    const paths = [
      ...written.keys(),
      "src/m0/fifo.ts",
      "src/m1/link-out.ts",
      "src/link-dir",
      "src/m3/a",
      "src/m3/missing.ts",
      "missing-dir/x.ts",
    ].sort();
    const got = new Map<string, Uint8Array | undefined>();
    for await (const { path, bytes } of ws.readMany(paths, { maxBytes: 1024 })) got.set(path, bytes);
    expect([...got.keys()]).toEqual(paths);
    for (const [path, bytes] of got) {
      if (written.has(path))
        expect(bytes === undefined ? undefined : Buffer.from(bytes).equals(await readFile(join(root, path))), path).toBe(true);
      else expect(bytes, path).toBeUndefined();
    }
  });

  it("leaves out files larger than maxBytes, and stops early without reading on", async () => {
    const ws = createWorkspaceFs(runtime.fs, await createWorkspace(runtime.fs, { root }));
    const paths = [...written.keys()].filter((p) => p.startsWith("src/m4/")).sort();
    const seen: string[] = [];
    for await (const { path, bytes } of ws.readMany(paths, { maxBytes: 20 })) {
      expect(bytes === undefined, path).toBe(Buffer.byteLength(written.get(path) as string) > 20);
      seen.push(path);
      if (seen.length === 40) break;
    }
    expect(seen).toEqual(paths.slice(0, 40));
  });
});

describe("readMany against a directory swapped for a symlink to an outside one", () => {
  it("never reads outside: zero escapes", async () => {
    const { startRacer } = await import("../../helpers/racer-process.ts");
    const outsideDir = join(base, "outside-dir");
    await mkdir(join(outsideDir, "deeper"), { recursive: true });
    await writeFile(join(outsideDir, "f.txt"), "outside secret\n");
    await writeFile(join(outsideDir, "deeper", "f.txt"), "outside secret\n");
    await mkdir(join(root, "race"), { recursive: true });
    const racer = await startRacer(new URL("../../fixtures/dir-swap-racer.mjs", import.meta.url).pathname, [
      join(root, "race"),
      "sub",
      outsideDir,
    ]);
    let inside = 0;
    let escapes = 0;
    try {
      const ws = createWorkspaceFs(runtime.fs, await createWorkspace(runtime.fs, { root }));
      // "race/sub" is read as a directory of its own and as the ancestor of "race/sub/deeper".
      const paths = Array.from({ length: 400 }, (_, i) => (i % 2 === 0 ? "race/sub/f.txt" : "race/sub/deeper/f.txt"));
      // Ten rounds at least, and on until one read has seen the inside version (a loaded machine
      // can keep the racer's swap in place through ten), at most 200.
      for (let round = 0; round < 200 && (round < 10 || inside === 0); round++) {
        for await (const { bytes } of ws.readMany(paths, { maxBytes: 1024 })) {
          const text = bytes === undefined ? "" : new TextDecoder().decode(bytes);
          if (text.includes("outside")) escapes++;
          if (text === "inside\n") inside++;
        }
      }
    } finally {
      const swaps = await racer.stop();
      expect(swaps).toBeGreaterThan(100);
    }
    expect(escapes).toBe(0);
    expect(inside).toBeGreaterThan(0);
  });
});
