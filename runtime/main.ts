// The CLI entry shared by all three runtimes (DESIGN.md, "Top level"): picks the Runtime for the
// runtime it finds itself on; everything else is runtime/cli/cli.ts. Node runs the compiled
// dist/runtime/main.js (bin/claude-ide-bridge.js); Bun runs this file as it is; Deno runs either.
// `bun run runtime/bun.ts` and `deno run -A runtime/deno.ts` skip this file and do the same.
const { Bun: bun, Deno: deno } = globalThis as { Bun?: unknown; Deno?: unknown };

const argv = process.argv.slice(2);

if (argv[0] === "shim") {
  // Claude Code starts the shim on every session: skip the bridge's adapter and config schema.
  await (await import("../shim/main.ts")).runShimStandalone(argv.slice(1));
} else if (bun !== undefined || deno !== undefined) {
  // A computed specifier keeps Bun's and Deno's files, and their globals, out of Node's typecheck
  // and build; the extension follows this file's (.ts from the sources, .js from dist/).
  const file = `./${bun !== undefined ? "bun" : "deno"}.${import.meta.url.endsWith(".ts") ? "ts" : "js"}`;
  const entry = (await import(file)) as { main(): Promise<void> };
  await entry.main();
} else {
  await (await import("./node.ts")).runNodeCli(argv);
}
