// Red team: the linters and formatters against a racing neighbour. A separate process swaps the file
// they work on (src/a.js, fixable and badly formatted) for a symlink to a file outside the workspace
// with the same text, and back, as fast as it can, while fixAllLintErrors (eslint, and biome on the
// file and on the workspace), formatDocument (biome) and formatAndSave (prettier) run on it again and
// again through the real dispatcher, with the tools from this repo's node_modules. Whatever the
// timing, the outside file stays byte for byte as it was and nothing new appears outside: zero
// writes outside. (biome once fixed in place, and this race made it write through the link; it now
// fixes text piped through it, written by the bridge through the jail.)
import { readdir, readFile, symlink } from "node:fs/promises";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRacer, type Racer } from "../../helpers/racer-process.ts";
import { tempWorkspaces, type TempWorkspaces } from "../../helpers/temp-workspace.ts";
import { dispatcher } from "../../helpers/tool-dispatch.ts";
import { toolErrorCode } from "../../helpers/tool-error.ts";

const REPO = resolve(import.meta.dirname, "../../..");
const RACER = fileURLToPath(new URL("../../fixtures/swap-racer.mjs", import.meta.url));
/** Each round runs three tools, each a linter or formatter process: seconds per round when loaded. */
const ROUNDS = Number(process.env.CIB_RACE_ROUNDS ?? 8);
const UGLY = "let   total = 1;\nconsole.log( total )\n";

let temp: TempWorkspaces;
let racer: Racer | undefined;

beforeAll(async () => {
  temp = await tempWorkspaces("cib-lint-race-");
});

afterAll(async () => {
  await racer?.stop();
  await temp.remove();
});

describe("linters and formatters while their file is swapped for a symlink to outside", () => {
  it("never write outside: zero escapes", { timeout: 300_000 }, async () => {
    const outside = await temp.make("outside", { "victim.js": UGLY });
    const root = await temp.make("ws", {
      "package.json": JSON.stringify({
        name: "race",
        type: "module",
        devDependencies: { "@biomejs/biome": "*", eslint: "*", prettier: "*" },
      }),
      "biome.json": JSON.stringify({ linter: { rules: { style: { useConst: "error" } } } }),
      "eslint.config.js": 'export default [{ files: ["**/*.js"], rules: { "prefer-const": "error" } }];\n',
      ".prettierrc.json": "{}\n",
      "src/keep.js": "export const k = 1;\n",
    });
    await symlink(join(REPO, "node_modules"), join(root, "node_modules"));
    racer = await startRacer(RACER, ["symlink", join(root, "src"), "a.js", join(outside, "victim.js"), UGLY]);
    const d = await dispatcher(root, { settings: { timeoutMs: 120_000 } });
    const outcomes = new Map<string, number>();
    const internal: string[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      for (const [tool, args] of [
        ["fixAllLintErrors", { linter: "eslint", file: "src/a.js" }],
        ["fixAllLintErrors", { linter: "biome", file: "src/a.js" }],
        ["fixAllLintErrors", { linter: "biome" }],
        ["formatDocument", { file: "src/a.js", formatter: "biome" }],
        ["formatAndSave", { file: "src/a.js", formatter: "prettier" }],
      ] as const) {
        const result = await d.call(tool, args);
        const code = toolErrorCode(result) ?? "ok";
        outcomes.set(`${tool} ${code}`, (outcomes.get(`${tool} ${code}`) ?? 0) + 1);
        if (/^(internal_error|invalid_arguments|timeout)$/.test(code)) internal.push(`${tool}: ${JSON.stringify(result).slice(0, 300)}`);
      }
    }
    const swaps = await racer.stop();
    racer = undefined;
    console.log(`lint/format race: ${swaps} swaps; ${JSON.stringify([...outcomes].sort())}`);
    expect(swaps).toBeGreaterThan(100);
    expect(await readFile(join(outside, "victim.js"), "utf8")).toBe(UGLY);
    expect((await readdir(outside)).sort()).toEqual(["victim.js"]);
    expect(internal).toEqual([]);
    // The tools did run on the inside file some of the time: the race was against real writes.
    expect([...outcomes.keys()].some((k) => k.endsWith(" ok"))).toBe(true);
  });
});
