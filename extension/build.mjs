// Bundles the extension (its sources, the protocol module it shares with the bridge, valibot and
// ws) into one CommonJS file, so the .vsix ships no node_modules. ws's optional native helpers
// stay out: ws works without them.
import { build } from "esbuild";

await build({
  entryPoints: ["src/extension.ts"],
  bundle: true,
  outfile: "dist/extension.js",
  platform: "node",
  format: "cjs",
  target: "node20",
  external: ["vscode", "bufferutil", "utf-8-validate"],
  sourcemap: false,
  minify: false,
  logLevel: "warning",
});
