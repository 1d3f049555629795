#!/usr/bin/env node
// The package's one bin, for every runtime: `npx claude-ide-bridge`, `bunx --bun claude-ide-bridge`
// and `deno run -A npm:claude-ide-bridge` all land here, and runtime/main.ts picks the Runtime.
// - Bun runs the TypeScript sources directly: it starts fastest that way (DESIGN.md).
// - Node runs the JavaScript that `npm run build` (the `prepare` script) compiled into dist/,
//   joined into a few files when esbuild was there to bundle it (the shim has a bundle of its own).
// - Deno does too: it strips no types under node_modules, where `npm:` packages live
//   (`deno run -A runtime/deno.ts` runs Deno on the sources of a checkout).
// What stops the program before it runs (a Node too old, dist/ not built, a dependency missing)
// is said on stderr and, when this runs as the stdio shim, also as the JSON-RPC error answering
// the client's requests: Claude Code shows a stdio server's error in `claude mcp list` but never
// its stderr, and a server that just exits is only "Failed to connect".
const onBun = /** @type {{ Bun?: unknown }} */ (globalThis).Bun !== undefined;
const onDeno = /** @type {{ Deno?: unknown }} */ (globalThis).Deno !== undefined;
const asShim = process.argv[2] === "shim";
const MIN_NODE_MAJOR = 20;
/** The bundle's code caches, beside it: node-bundle[-part].<hash>-<mtime>-node<version>-<arch>.v8cache (V8 comes with the Node). */
const CACHE_SUFFIX = ".v8cache";
/** The bundle's first line, written by scripts/bundle.mjs: the hash of what follows it. */
const BUNDLE_HASH = /^\/\/ claude-ide-bridge node bundle ([0-9a-f]{16})\n/;

const packageDir = decodeURIComponent(new URL("..", import.meta.url).pathname)
  .replace(/^\/([A-Za-z]:)/, "$1")
  .replace(/[\\/]$/, "");

if (onBun) {
  await start(new URL("../runtime/main.ts", import.meta.url).href);
} else {
  const major = Number(process.versions.node.split(".")[0]);
  if (!onDeno && !(major >= MIN_NODE_MAJOR)) {
    await cannotStart(
      `Node ${process.versions.node} is too old (${MIN_NODE_MAJOR} or newer is needed, at ${process.execPath}); ` +
        `install Node ${MIN_NODE_MAJOR}+ and make it the \`node\` this command runs, or start it with bun or deno`,
    );
  }
  const { existsSync, statSync } = await builtin("node:fs");
  const entry = new URL("../dist/runtime/main.js", import.meta.url);
  if (!existsSync(entry)) {
    await cannotStart(
      `the compiled code is missing (${packageDir}/dist/runtime/main.js): run \`npm ci\` (or \`npm run build\`) in ${packageDir}; ` +
        "npm install/ci builds it through the prepare script",
    );
  }
  // Modules load on first use (the shim's WebSocket client, the bundle's externals), so a missing
  // dependency would surface mid-session as a dropped connection: it is looked for first.
  if (!onDeno) {
    const missing = await missingDependency();
    if (missing !== undefined) {
      await cannotStart(
        `the install in ${packageDir} is incomplete (Cannot find package '${missing}', a dependency in package.json); run \`npm ci\` there (or reinstall the package)`,
      );
    }
  }
  const bundle = nodeBundle(entry, { existsSync, statSync });
  if (bundle === undefined) await start(entry.href);
  else await runBundle(bundle);
}

/**
 * A Node built-in module, without an import()'s ESM facade where Node has process.getBuiltinModule
 * (20.16 and later): the facade reads every export, and fs's load fs.promises and the streams
 * (5 ms of CPU for the bin's five modules).
 * @param {string} name
 */
async function builtin(name) {
  const direct = /** @type {{ getBuiltinModule?: (name: string) => unknown }} */ (process).getBuiltinModule;
  return direct?.call(process, name) ?? (await import(name));
}

/**
 * The first of package.json's dependencies that is in none of the node_modules folders Node would
 * look in from here. Only the folders are looked at: nothing is resolved or loaded.
 * @returns {Promise<string | undefined>}
 */
async function missingDependency() {
  const { existsSync, readFileSync } = await builtin("node:fs");
  const { createRequire } = await builtin("node:module");
  const { join } = await builtin("node:path");
  let names;
  try {
    names = Object.keys(JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")).dependencies ?? {});
  } catch {
    return undefined;
  }
  const folders = createRequire(import.meta.url).resolve.paths("x") ?? [];
  return names.find((name) => !folders.some((folder) => existsSync(join(folder, name, "package.json"))));
}

/** Imports the entry; a dependency that is not installed is a broken install, said as such. */
async function start(/** @type {string} */ url) {
  try {
    await import(url);
  } catch (err) {
    const e = /** @type {{ code?: unknown, message?: unknown }} */ (err ?? {});
    if (e.code !== "ERR_MODULE_NOT_FOUND" && !/Cannot find (?:module|package)/.test(String(e.message))) throw err;
    await cannotStart(
      `the install in ${packageDir} is incomplete (${firstLine(String(e.message))}); run \`npm ci\` there (or reinstall the package)`,
    );
  }
}

/**
 * Says why on stderr and exits 1; as the shim, first answers each request on stdin with that
 * reason until stdin ends (the client then shows it), since exiting at once is all it would see.
 * @param {string} why
 * @returns {Promise<never>}
 */
async function cannotStart(why) {
  const message = `claude-ide-bridge: ${why}.`;
  console.error(message);
  if (asShim) await answerWithError(message);
  process.exit(1);
}

/**
 * Answers every JSON-RPC request that arrives on stdin with `message` (-32000, as the shim's own
 * "no bridge" answer), until stdin ends or 60 s pass.
 * @param {string} message
 * @returns {Promise<void>}
 */
function answerWithError(message) {
  return new Promise((resolve) => {
    let buffered = "";
    const answer = (/** @type {string} */ line) => {
      let value;
      try {
        value = JSON.parse(line);
      } catch {
        return;
      }
      if (typeof value !== "object" || value === null || typeof value.method !== "string") return;
      if (typeof value.id !== "string" && typeof value.id !== "number") return;
      const data = { reason: "cannot_start", source: "claude-ide-bridge shim" };
      process.stdout.write(`${JSON.stringify({ jsonrpc: "2.0", id: value.id, error: { code: -32000, message, data } })}\n`);
    };
    const timer = setTimeout(resolve, 60_000);
    const done = () => {
      clearTimeout(timer);
      resolve();
    };
    process.stdin.setEncoding("utf8");
    process.stdin.on("data", (/** @type {string} */ chunk) => {
      buffered += chunk;
      const lines = buffered.split("\n");
      buffered = lines.pop() ?? "";
      for (const line of lines) answer(line);
    });
    process.stdin.on("end", done);
    process.stdin.on("error", done);
    process.stdout.on("error", done);
  });
}

function firstLine(/** @type {string} */ text) {
  return text.split("\n")[0] ?? text;
}

/**
 * On Node, the bundle of dist/ and its dependencies that `npm run build` makes (scripts/bundle.mjs):
 * the bridge's (node-bundle.cjs, entry runNodeCli) or the stdio shim's (node-shim.cjs, entry
 * runShimStandalone), which start several times faster from it than from the module tree. Not on
 * Deno (it runs the tree it type-maps in deno.json), and not when older than the tree (a `tsc`
 * without the bundle step).
 * @param {URL} entry
 * @param {{ existsSync: (p: URL) => boolean, statSync: (p: URL) => { mtimeMs: number } }} fs
 * @returns {{ url: URL, mtimeMs: number, run: string, argv: string[] } | undefined}
 */
function nodeBundle(entry, fs) {
  if (onDeno) return undefined;
  const url = new URL(asShim ? "../dist/runtime/node-shim.cjs" : "../dist/runtime/node-bundle.cjs", import.meta.url);
  if (!fs.existsSync(url)) return undefined;
  const { mtimeMs } = fs.statSync(url);
  if (mtimeMs < fs.statSync(entry).mtimeMs) return undefined;
  const args = process.argv.slice(2);
  return asShim ? { url, mtimeMs, run: "runShimStandalone", argv: args.slice(1) } : { url, mtimeMs, run: "runNodeCli", argv: args };
}

/**
 * Runs the bundle as a script compiled with V8's code cache: Node 20 caches no module's compiled
 * code, and compiling the bundle was the largest part of a start (bench/startup-profile.mjs).
 * The bundle is two files (scripts/bundle.mjs): the start part, run here, and the modules a start
 * does not run, loaded (loadPart) when the first of them is required, each with a code cache of its own.
 * @param {{ url: URL, mtimeMs: number, run: string, argv: string[] }} bundle
 */
async function runBundle({ url, mtimeMs, run, argv }) {
  const [fs, vm, { createRequire }, { fileURLToPath }] = await Promise.all([
    builtin("node:fs"),
    builtin("node:vm"),
    builtin("node:module"),
    builtin("node:url"),
  ]);
  const filename = fileURLToPath(url);
  const dir = fileURLToPath(new URL(".", url));
  const tools = { fs, vm, dir };
  const start = compiled(filename, { ...tools, mtimeMs });
  /**
   * The second part, compiled and run when the start part first requires one of its modules: its
   * functions define those modules (each run on its first require). Its hash is the one the start
   * part was built with, or it is not this build's.
   * @param {string} file
   * @param {string} hash
   * @param {(name: string, fn: unknown) => void} define
   */
  const loadPart = (file, hash, define) => {
    const path = `${dir}${file}`;
    const part = compiled(path, { ...tools, mtimeMs: fs.statSync(path).mtimeMs });
    if (part.hash !== hash) throw new Error(`${path} is not of the same build as ${filename}: run \`npm run build\``);
    part.script.runInThisContext()(define, url.href);
    // Once the modules required now have run, so that the cache holds their compiled code too.
    if (part.stale) setImmediate(() => writeCodeCache(part.script, { ...tools, cachePath: part.cachePath }));
  };
  const module = { exports: /** @type {Record<string, ((argv: string[]) => Promise<void>) | undefined>} */ ({}) };
  start.script.runInThisContext()(module.exports, createRequire(filename), module, filename, dir, url.href, loadPart);
  const started = module.exports[run]?.(argv);
  if (started === undefined) throw new Error(`${filename} is not the bridge's bundle (no ${run}): run \`npm run build\``);
  await started;
  if (start.stale) writeCodeCache(start.script, { ...tools, cachePath: start.cachePath });
}

/**
 * A part of the bundle compiled with its code cache. The cache sits beside the part, named after
 * the hash the build wrote on the part's first line, the part's mtime (an edit after the build) and
 * this Node's version, so a rebuilt or edited part or another Node never reads a stale one (V8
 * itself checks only the source's length); hashing the part here instead cost 10 ms of every start.
 * Whoever can write the cache can write the bundle itself, so it adds no way in (never in the
 * workspace or a shared temporary folder). Missing or rejected (`stale`), V8 compiles the source as
 * usual and the caller writes the cache anew once the code has run, with the functions it compiled.
 * @param {string} filename
 * @param {{ fs: typeof import("node:fs"), vm: typeof import("node:vm"), dir: string, mtimeMs: number }} options
 */
function compiled(filename, { fs, vm, dir, mtimeMs }) {
  // The bundle is ASCII (esbuild escapes the rest), so latin1 is its exact and fastest decoding.
  const source = fs.readFileSync(filename, "latin1");
  const hash = BUNDLE_HASH.exec(source.slice(0, 100))?.[1];
  const prefix = `${filename.slice(dir.length).replace(/\.cjs$/, "")}.`;
  const cachePath = hash && `${dir}${prefix}${hash}-${Math.trunc(mtimeMs)}-node${process.versions.node}-${process.arch}${CACHE_SUFFIX}`;
  let cachedData;
  try {
    if (cachePath) cachedData = fs.readFileSync(cachePath);
  } catch {
    // No cache yet (or not readable): a plain compile, and a cache written after the run.
  }
  const script = new vm.Script(source, { filename, cachedData });
  return { script, hash, cachePath, stale: cachePath !== undefined && (cachedData === undefined || script.cachedDataRejected === true) };
}

/**
 * Writes the script's code cache atomically (a private temporary name, then a rename), and removes
 * the caches of other builds of the bundle; those of other Nodes stay, so that switching between
 * two does not rewrite the cache on every start. Best effort: where the folder is read-only the
 * cache is not even made (making it is most of the cost).
 * @param {import("node:vm").Script} script
 * @param {{ fs: typeof import("node:fs"), cachePath: string, dir: string }} options
 */
function writeCodeCache(script, { fs, cachePath, dir }) {
  // The part's own prefix ("node-bundle." or "node-bundle-part."): each part's caches of other builds go.
  const prefix = cachePath.slice(dir.length).replace(/[0-9a-f]{16}-.*$/, "");
  const temporary = `${cachePath}.${process.pid}.tmp`;
  let fd;
  try {
    fd = fs.openSync(temporary, "wx", 0o644);
  } catch {
    return;
  }
  try {
    fs.writeFileSync(fd, script.createCachedData());
    fs.closeSync(fd);
    fd = undefined;
    fs.renameSync(temporary, cachePath);
    const build = cachePath.slice(dir.length).replace(/-node[^-]+-[^-]+$/, "-");
    for (const name of fs.readdirSync(dir)) {
      if (name.startsWith(prefix) && name.endsWith(CACHE_SUFFIX) && !name.startsWith(build)) fs.rmSync(`${dir}${name}`, { force: true });
    }
  } catch {
    if (fd !== undefined) fs.closeSync(fd);
    fs.rmSync(temporary, { force: true });
  }
}
