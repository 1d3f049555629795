// Reloads on Node import a per-version copy of the plugin: every file is its current version (a
// helper module too), the copy before is removed once a newer one loaded, a broken version's copy
// at once, and past the reload budget a reload is refused with the reason, leaving nothing behind.
import { existsSync } from "node:fs";
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createPluginImporter } from "../../../runtime/shared/plugin-import.ts";

let root: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "cib-plugin-versions-"));
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const write = async (version: number, helper = `export const version = ${version};\n`) => {
  await writeFile(join(root, "helper.mjs"), helper);
  await writeFile(join(root, "index.mjs"), `import { version } from "./helper.mjs";\nexport const answer = () => version; // ${version}\n`);
};
const versions = () => readdir(join(root, ".bridge-versions")).catch(() => [] as string[]);

it("imports each reload's files, keeps one copy, drops a broken one, and stops at the budget", { timeout: 30_000 }, async () => {
  // Each reload is charged about 115 bytes of files plus 16 KiB, a broken one too: the fifth is past the budget.
  const importer = createPluginImporter({ reloadBudgetBytes: 60_000 });
  const load = async (generation: number) =>
    ((await importer.importModule(join(root, "index.mjs"), { root, generation })) as { answer(): number }).answer();
  await write(1);
  expect(await load(1)).toBe(1);
  expect(await versions()).toEqual([]);
  await write(2);
  expect(await load(2)).toBe(2);
  await write(3);
  expect(await load(3)).toBe(3);
  expect(await versions()).toEqual(["3"]);
  await write(4, "export const version = ;\n");
  await expect(load(4)).rejects.toThrow();
  expect(await versions()).toEqual(["3"]);
  await write(5);
  expect(await load(5)).toBe(5);
  expect(await versions()).toEqual(["5"]);
  await write(6);
  await expect(load(6)).rejects.toThrow(/restart the bridge to load further edits/);
  expect(await versions()).toEqual(["5"]);
  await importer.release(root);
  expect(existsSync(join(root, ".bridge-versions"))).toBe(false);
});
