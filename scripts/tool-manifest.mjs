// Writes the built-in tools' manifest (src/startup/tool-manifest.ts) from their live definitions.
//   node --import tsx scripts/tool-manifest.mjs          src/startup/tool-manifest.generated.ts, from the sources
//   node scripts/tool-manifest.mjs --dist                 its compiled copy in dist/, from dist/ (the build runs this)
// The build writes dist/'s from dist/'s own definitions, so a build never lists stale metadata even
// when the sources' copy was not regenerated (the unit test catches that one).
import { execFileSync } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
// `--dist`, or imported as `tool-manifest.mjs?dist` (scripts/bundle.mjs).
const dist = process.argv.includes("--dist") || new URL(import.meta.url).search === "?dist";
const from = dist ? `${root}dist/src` : `${root}src`;
const ext = dist ? "js" : "ts";
const { IDE_LINK_TOOLSET, TOOLSETS } = await import(`${from}/tools/toolsets.${ext}`);
const { manifestModule, manifestOf, toolIndexModule } = await import(`${from}/startup/tool-manifest.${ext}`);
const manifest = manifestOf([...TOOLSETS, IDE_LINK_TOOLSET]);
// The manifest, and the small index of it that the shim reads (src/startup/predicted-initialize.ts).
for (const [name, text] of [
  ["tool-manifest", manifestModule(manifest)],
  ["tool-index", toolIndexModule(manifest)],
]) {
  const out = `${from}/startup/${name}.generated.${ext}`;
  // dist/ gets the module without its type annotation (the only TypeScript in it).
  await writeFile(out, dist ? text.replace(/^(export const \w+): readonly [^=]*=/gm, "$1 =") : text);
  if (!dist) execFileSync(`${root}node_modules/.bin/biome`, ["format", "--write", out], { stdio: "inherit" });
}
