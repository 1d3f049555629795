// The Node entry as one file: dist/runtime/node.js (runNodeCli), the ~330 modules it imports and the
// packages they import (hono, valibot, jose, ws, ...), joined by esbuild into
// dist/runtime/node-bundle.cjs. Loading one file instead of hundreds is what makes a Node start fast
// (bench/startup.mjs): no module resolution, no file reads but one, and esbuild drops what the
// packages export and the bridge never uses. The file is one function expression, which
// bin/claude-ide-bridge.js compiles as a script with V8's code cache (Node 20 caches no module's
// code) and calls with CommonJS's arguments and the bundle's URL for `import.meta.url`; it sits
// beside main.js so its import.meta.url-relative paths still hold.
// esbuild is a devDependency: without it (npm ci --omit=dev) the bin runs the unbundled dist/.
import { createHash } from "node:crypto";
import { copyFile, mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { isBuiltin } from "node:module";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const outdir = `${root}dist/runtime`;
const outfile = `${outdir}/node-bundle.cjs`;
/** What earlier builds left beside the bundle: an ESM bundle and its chunks, code caches of other bundles. */
const STALE = /^node-bundle\.js$|^node-chunk-|^node-bundle\..*\.v8cache$/;

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

await esbuild.build({
  entryPoints: [`${outdir}/node.js`],
  outfile,
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node20",
  // ws's optional native helpers, which it looks for itself and does without.
  external: ["bufferutil", "utf-8-validate"],
  define: { "import.meta.url": "__bundleUrl" },
  // Non-ASCII is escaped (esbuild's default, stated): the bin decodes the file as latin1.
  charset: "ascii",
  banner: { js: "(function (exports, require, module, __filename, __dirname, __bundleUrl) {" },
  footer: { js: "})" },
  logLevel: "warning",
});

// A package the bundle still requires would be resolved and loaded from node_modules on every start.
const text = await readFile(outfile, "latin1");
const required = new Set([...text.matchAll(/\brequire\("([^"]+)"\)/g)].map((m) => m[1]));
const outside = [...required].filter((name) => !isBuiltin(name) && name !== "bufferutil" && name !== "utf-8-validate");
if (outside.length > 0) throw new Error(`bundle: ${outfile} requires ${outside.join(", ")}: bundle them (or say here why not)`);
// The bin runs the bundle through vm.Script, which has no loader for import(): an import() esbuild
// leaves in place (of a built-in or a package) would fail when reached, long after the start.
const dynamic = [...text.matchAll(/(?<![\w$.])import\(\s*["'`]([^"'`]+)/g)].map((m) => m[1]);
if (dynamic.length > 0)
  throw new Error(`bundle: ${outfile} keeps import() of ${dynamic.join(", ")}: import it statically, or through require`);
// The hash the bin names the bundle's code cache after (bin/claude-ide-bridge.js), on the first
// line, so that a start reads it instead of hashing the whole file.
const hash = createHash("sha256").update(text, "latin1").digest("hex").slice(0, 16);
await writeFile(outfile, `// claude-ide-bridge node bundle ${hash}\n${text}`, "latin1");
