// The Node entry as two files: dist/runtime/node.js (runNodeCli), the ~330 modules it imports and the
// packages they import (hono, valibot, jose, ws, ...), joined by esbuild into
// dist/runtime/node-bundle.cjs (what a bridge's start runs) and node-bundle-part.cjs (the rest,
// below). Loading one file instead of hundreds is what makes a Node start fast (bench/startup.mjs):
// no module resolution, no file reads but one, and esbuild drops what the packages export and the
// bridge never uses. Each file is one function expression, which bin/claude-ide-bridge.js compiles
// as a script with V8's code cache (Node 20 caches no module's code) and calls with CommonJS's
// arguments and the bundle's URL for `import.meta.url`; they sit beside main.js so its
// import.meta.url-relative paths still hold.
// esbuild is a devDependency: without it (npm ci --omit=dev) the bin runs the unbundled dist/.
import { createHash } from "node:crypto";
import { copyFile, mkdir, readdir, rm, writeFile } from "node:fs/promises";
import { isBuiltin } from "node:module";
import { basename, normalize, relative } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const outdir = `${root}dist/runtime`;
const outfile = `${outdir}/node-bundle.cjs`;
/** The second part: the modules a start does not run (below). */
const PART_FILE = "node-bundle-part.cjs";
/** What earlier builds left beside the bundle: an ESM bundle and its chunks, code caches of other bundles. */
const STALE = /^node-bundle\.js$|^node-chunk-|^node-bundle(?:-part)?\..*\.v8cache$/;

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
  await rm(`${outdir}/${PART_FILE}`, { force: true });
  console.error("bundle: esbuild is not installed; the bin runs the unbundled dist/ (slower start)");
  process.exit(0);
}

// esbuild splits the tree at its dynamic imports (toolsets, subcommands, the bridge itself) into
// ESM chunks, each turned into a CommonJS module function here. The chunks a bridge's start runs
// (the entry's and the bridge's, with what they import) make the start part; all the others (the
// toolsets' modules, the subcommands, OAuth, the dashboard, the debugger) the second part, which the
// bin reads and compiles only when the first of them is required: a start reads, decodes and
// compiles the code it runs, not the 3 MB of the whole tree (bench/startup-profile.mjs: those were
// the most of the bridge's CPU over a bare Hono server's). Each module is evaluated once, on its
// first require, as ESM would: one instance of every module across both parts.
/** Whitespace and syntax only: identifiers keep their names (class names are error names). */
const MINIFY = { minifyWhitespace: true, minifySyntax: true };
const split = await esbuild.build({
  entryPoints: [`${outdir}/node.js`],
  outdir,
  entryNames: "node-entry",
  chunkNames: "chunk-[hash]",
  bundle: true,
  splitting: true,
  platform: "node",
  format: "esm",
  target: "node20",
  // ws's optional native helpers, which it looks for itself and does without.
  external: ["bufferutil", "utf-8-validate"],
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
/** What the bridge imports dynamically at every start: its part is the start part too. */
const START_IMPORTS = [`${relative(root, outdir)}/../src/bridge.js`].map((p) => normalize(p));
const outputs = split.metafile.outputs;
const nameOf = (path) => basename(path);
const entryOf = (wanted) => Object.keys(outputs).find((o) => outputs[o].entryPoint && normalize(outputs[o].entryPoint) === wanted);
const startSet = new Set();
const addStatic = (out) => {
  if (startSet.has(out)) return;
  startSet.add(out);
  for (const i of outputs[out].imports) if (i.kind === "import-statement" && !i.external) addStatic(i.path);
};
const entryOut = Object.keys(outputs).find((o) => outputs[o].entryPoint?.endsWith("runtime/node.js"));
addStatic(entryOut);
for (const wanted of START_IMPORTS) {
  const out = entryOf(wanted);
  if (out === undefined) throw new Error(`bundle: no chunk for ${wanted}`);
  addStatic(out);
}
/** Each chunk as one `__define("name", function (exports, require, module) {...})`. */
async function defined(file) {
  // import() becomes a require in a promise: the loader below is the only one there is.
  const cjs = await esbuild.transform(file.text, {
    format: "cjs",
    target: "node20",
    supported: { "dynamic-import": false },
    charset: "ascii",
    ...MINIFY,
    logLevel: "warning",
  });
  return `__define(${JSON.stringify(nameOf(file.path))}, function (exports, require, module) {\n${cjs.code}});\n`;
}
const starts = [];
const rest = [];
for (const file of split.outputFiles) {
  const out = relative(root, file.path);
  if (!file.path.endsWith(".js")) continue;
  (startSet.has(out) ? starts : rest).push(await defined(file));
}
const hashOf = (text) => createHash("sha256").update(text, "latin1").digest("hex").slice(0, 16);
const restText = `(function (__define, __bundleUrl) {\n"use strict";\n${rest.join("")}})`;
const restHash = hashOf(restText);
// The loader: a chunk's require of another ("./chunk-X.js") evaluates it once; a chunk of the
// second part makes the bin load that part first (__loadPart, bin/claude-ide-bridge.js), which
// must be the one this build wrote (its hash).
const loader = `var __defs = Object.create(null), __done = Object.create(null);
function __define(name, fn) { __defs[name] = fn; }
function __load(name) {
  if (!name.startsWith("./")) return require(name);
  var key = name.slice(2), done = __done[key];
  if (done !== undefined) return done.exports;
  if (__defs[key] === undefined) __loadPart(${JSON.stringify(PART_FILE)}, ${JSON.stringify(restHash)}, __define);
  var fn = __defs[key];
  if (fn === undefined) throw new Error("claude-ide-bridge: the bundle has no module " + key + ": run \`npm run build\`");
  done = __done[key] = { exports: {} };
  fn(done.exports, __load, done);
  return done.exports;
}
`;
const text = `(function (exports, require, module, __filename, __dirname, __bundleUrl, __loadPart) {\n"use strict";\n${loader}${starts.join("")}module.exports = __load(${JSON.stringify(`./${nameOf(entryOut)}`)});\n})`;

// Every chunk a chunk requires is in one of the two parts.
const definedNames = new Set([...`${text}${restText}`.matchAll(/__define\("([^"]+)"/g)].map((m) => m[1]));
const missing = [...`${text}${restText}`.matchAll(/\brequire\("\.\/([^"]+)"\)/g)].map((m) => m[1]).filter((n) => !definedNames.has(n));
if (missing.length > 0) throw new Error(`bundle: no chunk ${[...new Set(missing)].join(", ")} in either part`);
for (const [what, body] of [
  ["start part", text],
  ["second part", restText],
]) {
  // A package the bundle still requires would be resolved and loaded from node_modules on every start.
  const required = new Set([...body.matchAll(/\brequire\("([^"]+)"\)/g)].map((m) => m[1]));
  const outside = [...required].filter(
    (name) => !isBuiltin(name) && !name.startsWith("./chunk-") && name !== "bufferutil" && name !== "utf-8-validate",
  );
  if (outside.length > 0) throw new Error(`bundle: the ${what} requires ${outside.join(", ")}: bundle them (or say here why not)`);
  // The bin runs the parts through vm.Script, which has no loader for import(): an import() left in
  // place (of a built-in or a package) would fail when reached, long after the start.
  const dynamic = [...body.matchAll(/(?<![\w$.])import\(\s*["'`]([^"'`]+)/g)].map((m) => m[1]);
  if (dynamic.length > 0)
    throw new Error(`bundle: the ${what} keeps import() of ${dynamic.join(", ")}: import it statically, or through require`);
}
// The hash the bin names each part's code cache after (bin/claude-ide-bridge.js), on the first
// line, so that a start reads it instead of hashing the whole file.
await writeFile(`${outdir}/${PART_FILE}`, `// claude-ide-bridge node bundle ${restHash}\n${restText}`, "latin1");
await writeFile(outfile, `// claude-ide-bridge node bundle ${hashOf(text)}\n${text}`, "latin1");
