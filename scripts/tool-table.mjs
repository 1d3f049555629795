// Prints the README's tool table from the registry's toolsets (run `npm run build` first), so the
// README lists every tool with the description tools/list gives: `node scripts/tool-table.mjs`.
// test/unit/house/readme-tools.test.ts fails when a tool is missing from README.md.
import { TOOLSETS } from "../dist/src/tools/toolsets.js";

for (const toolset of TOOLSETS) {
  console.log(`\n**${toolset.name}**: ${toolset.purpose}\n`);
  console.log("| tool | what it does |\n|---|---|");
  for (const tool of toolset.tools) console.log(`| \`${tool.name}\` | ${tool.description.replaceAll("|", "\\|")} |`);
}
