// eslint's failing run over the whole workspace is kept (src/services/diagnostics/kept-eslint.ts):
// with the real eslint 9 of this repo and the bridge's real language servers and watcher, a config
// that fails the same way each time (a rule of a plugin it does not load) is run once, and a warm
// getDiagnostics says the same failure without starting eslint; changing the config runs it again.
// eslint's runs are counted by the config itself, which appends a line to a file outside the
// workspace each time an eslint process loads it.
import { mkdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { lspFixture, type LspFixture } from "../helpers/lsp-fixture.ts";
import { tempWorkspaces, type TempWorkspaces } from "../helpers/temp-workspace.ts";

const REPO = resolve(import.meta.dirname, "../..");

let fx: LspFixture;
let temp: TempWorkspaces;
let counter: string;

/** A flat config that counts its loads and turns on a rule of a plugin it does not load. */
const config = (plugin: string) =>
  `import { appendFileSync } from "node:fs";\nappendFileSync(${JSON.stringify(counter)}, "run\\n");\nexport default [{ rules: { "${plugin}/some-rule": "error" } }];\n`;

beforeAll(async () => {
  temp = await tempWorkspaces("cib-kept-eslint-");
  counter = join(await temp.make("counter", {}), "eslint-runs.log");
  fx = await lspFixture({
    "package.json": JSON.stringify({ name: "p", type: "module", devDependencies: { eslint: "^9" } }),
    "tsconfig.json": JSON.stringify({ compilerOptions: { strict: true, noEmit: true }, include: ["src"] }),
    "src/a.ts": "export const a: number = 1;\n",
    "src/b.js": "export const b = 2;\n",
  });
  await writeFile(join(fx.root, "eslint.config.mjs"), config("react"));
  // eslint found where a project installs it (node_modules/.bin), the package itself the repo's.
  await mkdir(join(fx.root, "node_modules/.bin"), { recursive: true });
  await symlink(join(REPO, "node_modules/.bin/eslint"), join(fx.root, "node_modules/.bin/eslint"));
}, 60_000);
afterAll(async () => {
  await fx?.stop();
  await temp?.remove();
});

interface Result {
  sources: string[];
  skipped: { source: string; reason: string }[];
}

const runs = async () => (await readFile(counter, "utf8").catch(() => "")).split("\n").filter(Boolean).length;
const eslintReason = (r: Result) => r.skipped.find((s) => s.source === "eslint")?.reason;

it("says eslint's kept failure on a warm call without running it, and runs it again after its config changes", {
  timeout: 240_000,
}, async () => {
  const all = () => fx.tools.data<Result>("getDiagnostics", {});
  // A language server started, so the watcher runs (it starts with the first server).
  await fx.tools.data<Result>("getDiagnostics", { file: "src/a.ts" });
  expect(await fx.lsp.watchProof()).toBeDefined();

  const before = await runs();
  const cold = await all();
  expect(eslintReason(cold)).toMatch(/react\/some-rule/);
  expect(await runs()).toBe(before + 1);
  const warm = await all();
  expect(eslintReason(warm)).toBe(eslintReason(cold));
  expect(await runs()).toBe(before + 1);

  await writeFile(join(fx.root, "eslint.config.mjs"), config("vue"));
  const changed = await all();
  expect(eslintReason(changed)).toMatch(/vue\/some-rule/);
  expect(await runs()).toBe(before + 2);
  expect(eslintReason(await all())).toBe(eslintReason(changed));
  expect(await runs()).toBe(before + 2);
  await rm(counter, { force: true });
});
