#!/usr/bin/env node
// The npm bin: runs the JavaScript that `npm run build` (the `prepare` script) compiles into dist/.
// Node runs compiled code rather than the .ts sources because start-up time matters (DESIGN.md).
import { existsSync } from "node:fs";

const entry = new URL("../dist/runtime/main.js", import.meta.url);
if (!existsSync(entry)) {
  console.error(
    "claude-ide-bridge: the compiled code is missing (dist/runtime/main.js).\n" +
      "Run `npm run build` in the package directory (npm install/ci does it through the prepare script).",
  );
  process.exit(1);
}
await import(entry.href);
