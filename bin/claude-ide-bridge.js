#!/usr/bin/env node
// The package's one bin, for every runtime: `npx claude-ide-bridge`, `bunx --bun claude-ide-bridge`
// and `deno run -A npm:claude-ide-bridge` all land here, and runtime/main.ts picks the Runtime.
// - Bun runs the TypeScript sources directly: it starts fastest that way (DESIGN.md).
// - Node runs the JavaScript that `npm run build` (the `prepare` script) compiled into dist/,
//   joined into one file when esbuild was there to bundle it.
// - Deno does too: it strips no types under node_modules, where `npm:` packages live
//   (`deno run -A runtime/deno.ts` runs Deno on the sources of a checkout).
const onBun = /** @type {{ Bun?: unknown }} */ (globalThis).Bun !== undefined;

if (onBun) {
  await import("../runtime/main.ts");
} else {
  const { existsSync, statSync } = await import("node:fs");
  const entry = new URL("../dist/runtime/main.js", import.meta.url);
  if (!existsSync(entry)) {
    console.error(
      "claude-ide-bridge: the compiled code is missing (dist/runtime/main.js).\n" +
        "Run `npm run build` in the package directory (npm install/ci does it through the prepare script).",
    );
    process.exit(1);
  }
  await import(nodeBundle(entry, { existsSync, statSync }) ?? entry.href);
}

/**
 * On Node, the one-file bundle of dist/ that `npm run build` makes (scripts/bundle.mjs): the bridge
 * starts several times faster from it than from the module tree. Not for the shim (it loads a few
 * modules of the tree, fewer bytes than the whole bundle), not on Deno (it runs the tree it
 * type-maps in deno.json), and not when older than the tree (a `tsc` without the bundle step).
 * @param {URL} entry
 * @param {{ existsSync: (p: URL) => boolean, statSync: (p: URL) => { mtimeMs: number } }} fs
 * @returns {string | undefined}
 */
function nodeBundle(entry, fs) {
  if (/** @type {{ Deno?: unknown }} */ (globalThis).Deno !== undefined || process.argv[2] === "shim") return undefined;
  const bundle = new URL("../dist/runtime/node-bundle.js", import.meta.url);
  if (!fs.existsSync(bundle) || fs.statSync(bundle).mtimeMs < fs.statSync(entry).mtimeMs) return undefined;
  return bundle.href;
}
