// The Node entry as one file: dist/runtime/main.js and the ~330 modules it imports, joined by
// esbuild into dist/runtime/node-bundle.js. Loading one file instead of hundreds is what makes a
// Node start fast (bench/startup.mjs: module resolution, file reads and compiles dominated the
// start of the unbundled tree). Dependencies stay external: they resolve from node_modules as
// before, and the bundle sits beside main.js so its import.meta.url-relative paths still hold.
// esbuild is a devDependency: without it (npm ci --omit=dev) the bin runs the unbundled dist/.
import { copyFile, mkdir, readdir, rm } from "node:fs/promises";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const outdir = `${root}dist/runtime`;
const outfile = `${outdir}/node-bundle.js`;
/** Beside the bundle, so that paths relative to a module's own URL hold in every chunk too. */
const CHUNK_PREFIX = "node-chunk-";

// A plugin's worker starts on its own file, not on the bundle: plain JavaScript that tsc does not
// emit, copied beside the compiled runtime/shared/ (runtime/node.ts finds it relative to itself).
await mkdir(`${outdir}/shared`, { recursive: true });
await copyFile(`${root}runtime/shared/plugin-worker.mjs`, `${outdir}/shared/plugin-worker.mjs`);

// The tool manifest in dist/ from dist/'s own definitions (scripts/tool-manifest.mjs), before the
// bundle takes it in: what the bridge lists is what this build's tools are.
await import("./tool-manifest.mjs?dist");

let esbuild;
try {
  esbuild = await import("esbuild");
} catch {
  // A stale bundle would shadow the new build: no bundle at all is the safe fallback.
  await rm(outfile, { force: true });
  console.error("bundle: esbuild is not installed; the bin runs the unbundled dist/ (slower start)");
  process.exit(0);
}

// Chunks of an older build would be left beside the new ones, never loaded: removed first.
for (const name of await readdir(outdir)) if (name.startsWith(CHUNK_PREFIX)) await rm(`${outdir}/${name}`);

/**
 * `ws` is CommonJS: imported as ESM, Node runs it through cjs-module-lexer and an ESM facade, about
 * 40 ms of CPU of every start on a loaded 2-core machine (bench/startup-profile.mjs). The bundle runs
 * on Node only, so it loads `ws` with require instead; the names the sources import are listed
 * (one the list lacks fails this build, not a start).
 */
const wsThroughRequire = {
  name: "ws-through-require",
  setup(build) {
    build.onResolve({ filter: /^ws$/ }, () => ({ path: "ws", namespace: "ws-through-require" }));
    build.onLoad({ filter: /.*/, namespace: "ws-through-require" }, () => ({
      contents:
        'import { createRequire } from "node:module";\n' +
        'const ws = createRequire(import.meta.url)("ws");\n' +
        "export default ws;\n" +
        "export const { WebSocket, WebSocketServer } = ws;\n",
      loader: "js",
    }));
  },
};

await esbuild.build({
  entryPoints: { "node-bundle": `${outdir}/main.js` },
  outdir,
  // What the sources import lazily (the dashboard, OAuth, the debugger, each command) stays lazy:
  // one bundle would load all of it, and the packages it imports, before the first request.
  splitting: true,
  chunkNames: `${CHUNK_PREFIX}[hash]`,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  packages: "external",
  logLevel: "warning",
  plugins: [wsThroughRequire],
});
