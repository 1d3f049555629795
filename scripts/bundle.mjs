// The Node entry as two files: dist/runtime/node.js (runNodeCli), the ~330 modules it imports and the
// packages they import (hono, valibot, jose, ws, ...), joined by esbuild into
// dist/runtime/node-bundle.cjs (what a bridge's start runs) and node-bundle-part<n>.cjs (the rest,
// below). Loading a file instead of hundreds is what makes a Node start fast (bench/startup.mjs):
// no module resolution, no file reads but one, and esbuild drops what the packages export and the
// bridge never uses. Each file is one function expression, which bin/claude-ide-bridge.js compiles
// as a script with V8's code cache (Node 20 caches no module's code) and calls with CommonJS's
// arguments and the bundle's URL for `import.meta.url`; they sit beside main.js so its
// import.meta.url-relative paths still hold.
// esbuild is a devDependency: without it (npm ci --omit=dev) the bin runs the unbundled dist/.
import { createHash } from "node:crypto";
import { copyFile, mkdir, readdir, rm, writeFile } from "node:fs/promises";
import { isBuiltin } from "node:module";
import { basename, relative } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const outdir = `${root}dist/runtime`;
const outfile = `${outdir}/node-bundle.cjs`;
/** What earlier builds left beside the bundle: an ESM bundle and its chunks, code caches of other bundles. */
const STALE = /^node-bundle\.js$|^node-chunk-|^node-(?:bundle|shim)(?:-part\d*)?\.(?:.*\.v8cache|cjs|modules\.json)$/;

// A plugin's worker starts on its own file, not on the bundle: plain JavaScript that tsc does not
// emit, copied beside the compiled runtime/shared/ (runtime/node.ts finds it relative to itself).
await mkdir(`${outdir}/shared`, { recursive: true });
await copyFile(`${root}runtime/shared/plugin-worker.mjs`, `${outdir}/shared/plugin-worker.mjs`);

// The tool manifest in dist/ from dist/'s own definitions (scripts/tool-manifest.mjs), before the
// bundle takes it in: what the bridge lists is what this build's tools are.
await import("./tool-manifest.mjs?dist");

for (const name of await readdir(outdir)) if (STALE.test(name)) await rm(`${outdir}/${name}`);

let esbuild;
try {
  esbuild = await import("esbuild");
} catch {
  // A stale bundle would shadow the new build: no bundle at all is the safe fallback.
  await rm(outfile, { force: true });
  console.error("bundle: esbuild is not installed; the bin runs the unbundled dist/ (slower start)");
  process.exit(0);
}

// esbuild splits the tree at its dynamic imports (toolsets, subcommands, the bridge itself) into
// ESM chunks, each turned into a CommonJS module function here. The chunks a start runs (the
// entry's and, for the bridge, src/bridge.ts's, with what they import) make the start part; all the
// others (the toolsets' modules, the subcommands, OAuth, the dashboard, the debugger) the later
// parts (one per dynamic import further away), each read and compiled only when the first of its
// modules is required: a start reads,
// decodes and compiles the code it runs, not the 3 MB of the whole tree (bench/startup-profile.mjs:
// those were the most of the bridge's CPU over a bare Hono server's). Each module is evaluated
// once, on its first require, as ESM would: one instance of every module across both parts.
// The stdio shim gets a bundle of its own the same way (node-shim.cjs, its first part the
// predicted initialize answer it computes only when it starts a bridge): Node's ES module loader
// took a third of its start for its 30 small files.
/** Whitespace and syntax only: identifiers keep their names (class names are error names). */
const MINIFY = { minifyWhitespace: true, minifySyntax: true };

await splitBundle({
  entry: `${outdir}/node.js`,
  startImports: ["dist/src/bridge.js"],
  file: "node-bundle",
  external: ["bufferutil", "utf-8-validate"],
});
// The shim's ws is in its first part, loaded when it connects (shim/bridge-link.ts).
await splitBundle({
  entry: `${root}dist/shim/main.js`,
  startImports: [],
  file: "node-shim",
  external: ["bufferutil", "utf-8-validate"],
});

/**
 * Writes `${file}.cjs` (the start part) and `${file}-part.cjs` (the rest) beside the entry.
 * @param {{ entry: string, startImports: string[], file: string, external: string[] }} options
 */
async function splitBundle({ entry, startImports, file, external }) {
  const split = await esbuild.build({
    entryPoints: [entry],
    outdir,
    entryNames: `${file}-entry`,
    chunkNames: "chunk-[hash]",
    bundle: true,
    splitting: true,
    platform: "node",
    format: "esm",
    target: "node20",
    external,
    define: { "import.meta.url": "__bundleUrl" },
    // Non-ASCII is escaped (esbuild's default, stated): the bin decodes the files as latin1.
    charset: "ascii",
    // Fewer bytes to read, decode and keep (a start's CPU follows its bytes on these machines);
    // names stay, as errors are named after their classes (DESIGN.md, "Errors").
    ...MINIFY,
    metafile: true,
    write: false,
    logLevel: "warning",
  });
  const outputs = split.metafile.outputs;
  /** Each chunk's part: 0 for the start's, then how many dynamic imports away from it. */
  const level = new Map();
  const place = (out, at, next) => {
    if (level.has(out)) return;
    level.set(out, at);
    for (const i of outputs[out].imports) {
      if (i.external) continue;
      if (i.kind === "import-statement") place(i.path, at, next);
      else next.push(i.path);
    }
  };
  const outOf = (wanted) => {
    const out = Object.keys(outputs).find((o) => outputs[o].entryPoint === wanted);
    if (out === undefined) throw new Error(`bundle: no chunk for ${wanted}`);
    return out;
  };
  const entryOut = outOf(relative(root, entry));
  let wave = [entryOut, ...startImports.map(outOf)];
  for (let at = 0; wave.length > 0; at++) {
    const next = [];
    for (const out of wave) place(out, at, next);
    wave = next;
  }
  const parts = [];
  /** Where each chunk of a later part is: the index of its part in partFiles. */
  const where = {};
  for (const output of split.outputFiles) {
    if (!output.path.endsWith(".js")) continue;
    // One the metafile names no import of (seen in the shim's build) goes in the last part: where
    // a chunk is only decides when it is read, never whether it can be.
    const at = level.get(relative(root, output.path)) ?? level.size;
    parts[at] = [...(parts[at] ?? []), await defined(output)];
    if (at > 0) where[basename(output.path)] = at;
  }
  /** The later parts in order, numbered from 1 without gaps. */
  const later = parts.map((defs, at) => ({ defs, at })).filter(({ defs, at }) => at > 0 && defs !== undefined);
  const partFiles = later.map(({ defs }, i) => {
    const text = `(function (__define, __bundleUrl) {\n"use strict";\n${defs.join("")}})`;
    return { name: `${file}-part${i + 1}.cjs`, text, hash: hashOf(text) };
  });
  for (const [name, at] of Object.entries(where)) where[name] = later.findIndex((part) => part.at === at);
  // The loader: a chunk's require of another ("./chunk-X.js") evaluates it once; a chunk of a later
  // part makes the bin load that part first (__loadPart, bin/claude-ide-bridge.js), which must be
  // the one this build wrote (its hash).
  const loader = `var __defs = Object.create(null), __done = Object.create(null);
var __parts = ${JSON.stringify(partFiles.map((f) => [f.name, f.hash]))}, __where = ${JSON.stringify(where)};
function __define(name, fn) { __defs[name] = fn; }
function __load(name) {
  if (!name.startsWith("./")) return require(name);
  var key = name.slice(2), done = __done[key];
  if (done !== undefined) return done.exports;
  var part = __parts[__where[key]];
  if (__defs[key] === undefined && part !== undefined) __loadPart(part[0], part[1], __define);
  var fn = __defs[key];
  if (fn === undefined) throw new Error("claude-ide-bridge: the bundle has no module " + key + ": run \`npm run build\`");
  done = __done[key] = { exports: {} };
  fn(done.exports, __load, done);
  return done.exports;
}
`;
  const text = `(function (exports, require, module, __filename, __dirname, __bundleUrl, __loadPart) {\n"use strict";\n${loader}${(parts[0] ?? []).join("")}module.exports = __load(${JSON.stringify(`./${basename(entryOut)}`)});\n})`;
  check({ parts: [text, ...partFiles.map((f) => f.text)], external });
  // What the start part holds, one module a line after the hash (test/e2e/shim-import-graph.test.ts reads the shim's).
  const modules = [...new Set([...level].filter(([, at]) => at === 0).flatMap(([out]) => Object.keys(outputs[out].inputs)))].sort();
  // The hash the bin names each part's code cache after (bin/claude-ide-bridge.js), on the first
  // line, so that a start reads it instead of hashing the whole file.
  // Which modules each chunk holds, for bench/startup-profile.mjs (never read by a start).
  const chunks = Object.fromEntries(
    Object.keys(outputs).map((out) => [
      basename(out),
      Object.entries(outputs[out].inputs)
        .map(([path, { bytesInOutput }]) => [path, bytesInOutput])
        .sort((a, b) => b[1] - a[1]),
    ]),
  );
  await writeFile(`${outdir}/${file}.modules.json`, `${JSON.stringify(chunks, null, 1)}\n`);
  for (const part of partFiles)
    await writeFile(`${outdir}/${part.name}`, `// claude-ide-bridge node bundle ${part.hash}\n${part.text}`, "latin1");
  await writeFile(
    `${outdir}/${file}.cjs`,
    `// claude-ide-bridge node bundle ${hashOf(text)}\n${modules.map((m) => `// module ${m}\n`).join("")}${text}`,
    "latin1",
  );
}

/** Each chunk as one `__define("name", function (exports, require, module) {...})`. */
async function defined(output) {
  // import() becomes a require in a promise: the loader above is the only one there is.
  const cjs = await esbuild.transform(output.text, {
    format: "cjs",
    target: "node20",
    supported: { "dynamic-import": false },
    charset: "ascii",
    ...MINIFY,
    logLevel: "warning",
  });
  return `__define(${JSON.stringify(basename(output.path))}, function (exports, require, module) {\n${cjs.code}});\n`;
}

function hashOf(text) {
  return createHash("sha256").update(text, "latin1").digest("hex").slice(0, 16);
}

/** What the parts may require: Node's built-in modules, their own chunks (each in one of them) and the externals. */
function check({ parts, external }) {
  const all = parts.join("");
  const definedNames = new Set([...all.matchAll(/__define\("([^"]+)"/g)].map((m) => m[1]));
  const missing = [...all.matchAll(/\brequire\("\.\/([^"]+)"\)/g)].map((m) => m[1]).filter((n) => !definedNames.has(n));
  if (missing.length > 0) throw new Error(`bundle: no chunk ${[...new Set(missing)].join(", ")} in any part`);
  for (const [i, body] of parts.entries()) {
    const what = i === 0 ? "start part" : `part ${i}`;
    // A package the bundle still requires would be resolved and loaded from node_modules on every start.
    const required = new Set([...body.matchAll(/\brequire\("([^"]+)"\)/g)].map((m) => m[1]));
    const outside = [...required].filter((name) => !isBuiltin(name) && !name.startsWith("./chunk-") && !external.includes(name));
    if (outside.length > 0) throw new Error(`bundle: the ${what} requires ${outside.join(", ")}: bundle them (or say here why not)`);
    // The bin runs the parts through vm.Script, which has no loader for import(): an import() left in
    // place (of a built-in or a package) would fail when reached, long after the start.
    const dynamic = [...body.matchAll(/(?<![\w$.])import\(\s*["'`]([^"'`]+)/g)].map((m) => m[1]);
    if (dynamic.length > 0)
      throw new Error(`bundle: the ${what} keeps import() of ${dynamic.join(", ")}: import it statically, or through require`);
  }
}
