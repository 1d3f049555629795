#!/usr/bin/env node
// The package's one bin, for every runtime: `npx claude-ide-bridge`, `bunx --bun claude-ide-bridge`
// and `deno run -A npm:claude-ide-bridge` all land here, and runtime/main.ts picks the Runtime.
// - Bun runs the TypeScript sources directly: it starts fastest that way (DESIGN.md).
// - Node runs the JavaScript that `npm run build` (the `prepare` script) compiled into dist/.
// - Deno does too: it strips no types under node_modules, where `npm:` packages live
//   (`deno run -A runtime/deno.ts` runs Deno on the sources of a checkout).
const onBun = /** @type {{ Bun?: unknown }} */ (globalThis).Bun !== undefined;

if (onBun) {
  await import("../runtime/main.ts");
} else {
  const entry = new URL("../dist/runtime/main.js", import.meta.url);
  const { existsSync } = await import("node:fs");
  if (!existsSync(entry)) {
    console.error(
      "claude-ide-bridge: the compiled code is missing (dist/runtime/main.js).\n" +
        "Run `npm run build` in the package directory (npm install/ci does it through the prepare script).",
    );
    process.exit(1);
  }
  await import(entry.href);
}
