// The CLI entry on Node (compiled to dist/runtime/main.js, run by bin/claude-ide-bridge.js).
// Only these lines know the runtime; everything else is runtime/cli.ts.
import { runCli } from "./cli.ts";
import { createNodeRuntime, shutdown } from "./node.ts";

void runCli({ runtime: createNodeRuntime(), shutdown, writeStdout: (text) => process.stdout.write(text) }, process.argv.slice(2));
