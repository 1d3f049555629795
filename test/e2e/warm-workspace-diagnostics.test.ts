// A warm whole-workspace getDiagnostics answers from what was already computed for files whose
// text and whose dependencies have not changed (a project's compiler answer while none of its
// inputs changed, src/services/diagnostics/kept-answers.ts; a server's answer for a file
// of no project, src/lsp/kept-diagnostics.ts), instead of checking everything again; it must
// never be stale for that. On a solution-style TypeScript
// fixture with more files than a server keeps open (real tsgo): the same answer warm as cold, then
// a dependency rewritten on disk by rename-over (as sed -i and editors save) breaks every file that
// imports it on the very next call, and putting it back makes them clean again. A push server's kept
// answer (src/lsp/kept-diagnostics.ts: a JSON file checked against a schema in the workspace) is
// dropped when the schema it names changes, though the file itself did not, and when the file does.
import { readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { filesAt, solutionTsRepo } from "../fixtures/lsp-repos.ts";
import { lspFixture, type LspFixture, writeFiles } from "../helpers/lsp-fixture.ts";

/** Route modules (each with its test): 80 files besides the rest, more than the 64 a server keeps open. */
const MODULES = 40;

/** A JSON Schema whose `port` must be of `type`. */
const portSchema = (type: string) => JSON.stringify({ type: "object", properties: { port: { type } } });
const SETTINGS = JSON.stringify({ $schema: "./settings.schema.json", port: 8080 });

let fx: LspFixture;
beforeAll(async () => {
  fx = await lspFixture({});
  await writeFiles(fx.root, {
    ...filesAt(solutionTsRepo(MODULES), fx.root),
    "config/settings.schema.json": portSchema("number"),
    "config/settings.json": SETTINGS,
  });
}, 60_000);
afterAll(async () => {
  await fx?.stop();
});

interface Result {
  diagnostics: { file: string; severity: string; message: string }[];
  counts: { error: number };
  skipped: unknown[];
  partial?: string;
}

async function renameOver(file: string, text: string): Promise<void> {
  const tmp = join(fx.root, `${file}.tmp-save`);
  await writeFile(tmp, text);
  await rename(tmp, join(fx.root, file));
}

it("answers warm as cold, and a dependency changed on disk reaches every dependent on the next call", async () => {
  const all = () => fx.tools.data<Result>("getDiagnostics", { severity: "error", maxResults: 2000 });
  const cold = await all();
  expect(cold, JSON.stringify(cold).slice(0, 2000)).toMatchObject({ counts: { error: 0 }, skipped: [] });
  expect(cold.partial).toBeUndefined();
  const warm = await all();
  expect(warm).toEqual(cold);

  const original = await readFile(join(fx.root, "src/http-exception.ts"), "utf8");
  await renameOver("src/http-exception.ts", original.replace("export class HTTPException", "export class HttpErr"));
  const broken = await all();
  const files = new Set(broken.diagnostics.map((d) => d.file));
  // Every route and route test imports the renamed class: none of them may keep its clean answer.
  for (let i = 0; i < MODULES; i++) {
    expect(files, `route${i}`).toContain(`src/routes/route${i}.ts`);
    expect(files, `route${i}.test`).toContain(`src/routes/route${i}.test.ts`);
  }

  await renameOver("src/http-exception.ts", original);
  const fixed = await all();
  expect(fixed.counts.error, JSON.stringify(fixed.diagnostics.slice(0, 5))).toBe(0);
}, 240_000);

it("drops a push server's kept answer when the schema it names changes, and when the file does", async () => {
  const config = () => fx.tools.data<Result>("getDiagnostics", { file: "config" });
  const settingsFindings = (r: Result) => r.diagnostics.filter((d) => d.file === "config/settings.json");
  expect(settingsFindings(await config())).toEqual([]);
  expect(settingsFindings(await config())).toEqual([]);
  // Only the schema changes: the kept answer for the unchanged settings.json must not be given again.
  await renameOver("config/settings.schema.json", portSchema("string"));
  const mismatch = settingsFindings(await config());
  expect(mismatch.map((d) => d.message).join("\n")).toMatch(/string/i);
  await renameOver("config/settings.json", JSON.stringify({ $schema: "./settings.schema.json", port: "8080" }));
  expect(settingsFindings(await config())).toEqual([]);
}, 120_000);
