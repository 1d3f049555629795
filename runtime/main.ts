// The CLI entry. Only the first lines know the runtime; the rest is shared with Bun and Deno
// (`process.argv`/`process.exit` exist on all three). Logs go to stderr; stdout carries only
// --help and --version, because the stdio shim owns stdout when it runs.
import { createNodeRuntime, shutdown } from "./node.ts";
import { BridgeError, errorMessage } from "../src/errors.ts";
import { HELP_TEXT, parseCli } from "../src/config/cli.ts";
import { resolveConfig } from "../src/config/load.ts";
import type { Runtime } from "./types.ts";

const runtime = createNodeRuntime();

async function main(argv: string[]): Promise<void> {
  const cli = parseCli(argv);
  if (cli.kind === "help") {
    process.stdout.write(HELP_TEXT);
    return process.exit(0);
  }
  if (cli.kind === "version") {
    process.stdout.write(`${await packageVersion(runtime)}\n`);
    return process.exit(0);
  }
  const config = await resolveConfig(cli.flags, {
    readConfigFile: (path) => runtime.fs.readTextFile(path),
    cwd: runtime.paths.cwd,
    env: runtime.env,
  });
  // Loaded lazily so --help and --version stay fast (DESIGN.md, "Start-up cost is a feature").
  const { startBridge } = await import("../src/bridge.ts");
  // startBridge registers its own stop() with runtime.onShutdown before it writes the lock file.
  await startBridge(runtime, config);
}

/** package.json sits one level up from runtime/main.ts and two up from dist/runtime/main.js. */
async function packageVersion(rt: Runtime): Promise<string> {
  for (const relative of ["../package.json", "../../package.json"]) {
    const url = new URL(relative, import.meta.url);
    // file:///C:/x -> C:/x on Windows; /x elsewhere.
    const path = decodeURIComponent(url.pathname).replace(/^\/([A-Za-z]:)/, "$1");
    try {
      const pkg: unknown = JSON.parse(await rt.fs.readTextFile(path));
      if (typeof pkg === "object" && pkg !== null && "name" in pkg && pkg.name === "claude-ide-bridge" && "version" in pkg) {
        return String(pkg.version);
      }
    } catch {
      // Not this candidate; try the next one.
    }
  }
  return "unknown";
}

main(process.argv.slice(2)).catch(async (err: unknown) => {
  if (err instanceof BridgeError && (err.code === "usage" || err.code === "config_invalid")) {
    console.error(`claude-ide-bridge: ${err.message}`);
    console.error("Run claude-ide-bridge --help for the options.");
    process.exit(2);
  }
  console.error(`claude-ide-bridge: ${err instanceof BridgeError ? err.message : errorMessage(err)}`);
  if (!(err instanceof BridgeError) && err instanceof Error && err.stack !== undefined) console.error(err.stack);
  // Whatever did start (lock file, listeners) is cleaned up by the handlers registered so far.
  await shutdown(1);
});
