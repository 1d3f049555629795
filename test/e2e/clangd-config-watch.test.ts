// A `.clangd` is read by a running clangd as it goes, so one written mid-session must pass the same
// guard as one there at the start (src/lsp/clangd-config-guard.ts): the watcher hears it, the guard
// looks again, and a clangd whose guarded arguments now differ is stopped and started with them.
// The hostile config here names a compilation database outside the workspace, whose flags turn a
// line of the file into an #error (and beside which clangd would write its index): with the guard,
// the restarted clangd reads no project config, so the file stays clean and nothing is written outside.
// What the watch used to miss is here too: a folder made with its files in one go (a checkout,
// cp -r) showed only the folder to the watcher, so a .clangd in it was never guarded; and build/
// (where CMake writes the compilation database, and clangd its index beside it) was not watched.
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lspFixture, type LspFixture } from "../helpers/lsp-fixture.ts";
import { missingProgram } from "../helpers/missing-program.ts";

const SOURCE = "#ifdef FROM_OUTSIDE\n#error the outside database was used\n#endif\nint answer(void) { return 42; }\n";

/** A workspace with these files, its compilation database at `database`, and one outside listing `outsideUnits` with -DFROM_OUTSIDE. */
function clangdWorkspace(files: Record<string, string>, db: { database: string; units: string[]; outsideUnits: string[] }) {
  const state = { fx: undefined as LspFixture | undefined, outside: "" };
  beforeAll(async () => {
    state.outside = await realpath(await mkdtemp(join(tmpdir(), "clangd-outside-db-")));
    const fx = await lspFixture(files);
    state.fx = fx;
    const entry = (file: string, defines: string[]) => ({
      directory: fx.root,
      file: join(fx.root, file),
      arguments: ["cc", ...defines, "-c", file],
    });
    await writeFile(join(fx.root, db.database), JSON.stringify(db.units.map((unit) => entry(unit, []))));
    await writeFile(
      join(state.outside, "compile_commands.json"),
      JSON.stringify(db.outsideUnits.map((unit) => entry(unit, ["-DFROM_OUTSIDE"]))),
    );
  }, 60_000);
  afterAll(async () => {
    await state.fx?.stop();
    if (state.outside !== "") await rm(state.outside, { recursive: true, force: true });
  });
  const fixture = () => state.fx as LspFixture;
  return {
    fixture,
    outside: () => state.outside,
    clangd: () =>
      fixture()
        .lsp.status()
        .servers.find((s) => s.id === "clangd"),
    errorsOf: async (file: string) =>
      (await fixture().lsp.diagnosticsFor(file, { signal: AbortSignal.timeout(60_000) })).items
        .filter((d) => d.severity === 1)
        .map((d) => d.message),
  };
}

const noClangd = missingProgram("clangd", ["--version"]) !== undefined;

describe.skipIf(noClangd)("a .clangd written while clangd runs", () => {
  const w = clangdWorkspace(
    { "a.c": SOURCE, "main.c": "int answer(void);\nint main(void) { return answer(); }\n" },
    { database: "compile_commands.json", units: ["a.c", "main.c"], outsideUnits: ["a.c"] },
  );

  it("restarts clangd with the guarded arguments, which keep it from obeying the config", async () => {
    expect(await w.errorsOf("a.c")).toEqual([]);
    const before = w.clangd()?.pid;
    expect(before).toBeTypeOf("number");

    await writeFile(join(w.fixture().root, ".clangd"), `CompileFlags:\n  CompilationDatabase: ${w.outside()}\n`);
    // The watcher's batch, the guard's walk and the kill: bounded by the poll's timeout.
    await expect.poll(() => w.clangd()?.pid !== before, { timeout: 30_000, interval: 50 }).toBe(true);

    expect(await w.errorsOf("a.c")).toEqual([]);
    expect(w.clangd()).toMatchObject({ state: "running" });
    expect(w.clangd()?.pid).not.toBe(before);
    expect(existsSync(join(w.outside(), ".cache"))).toBe(false);
  }, 120_000);
});

describe.skipIf(noClangd)("clangd's config and database folders made while it runs", () => {
  const w = clangdWorkspace(
    { "a.c": SOURCE, "build/keep": "" },
    { database: "build/compile_commands.json", units: ["a.c", "lib/b.c"], outsideUnits: ["lib/b.c"] },
  );

  it("hears a symlink put on the index's path in build/, and restarts clangd with its index in memory", async () => {
    expect(await w.errorsOf("a.c")).toEqual([]);
    const before = w.clangd()?.pid;
    expect(before).toBeTypeOf("number");
    // clangd may have made the real folder already (its index of the database in build/).
    await rm(join(w.fixture().root, "build/.cache"), { recursive: true, force: true });
    await symlink(w.outside(), join(w.fixture().root, "build/.cache"));
    await expect.poll(() => w.clangd()?.pid !== before, { timeout: 30_000, interval: 50 }).toBe(true);
    expect(await w.errorsOf("a.c")).toEqual([]);
  }, 120_000);

  it("guards a .clangd that arrives inside a new folder together with the folder", async () => {
    const before = w.clangd()?.pid;
    const root = w.fixture().root;
    // The folder and its files in one go, before the watcher's batch looks at the folder.
    await mkdir(join(root, "lib"));
    await Promise.all([
      writeFile(join(root, "lib/.clangd"), `CompileFlags:\n  CompilationDatabase: ${w.outside()}\n`),
      writeFile(join(root, "lib/b.c"), SOURCE.replace("answer", "other")),
    ]);
    await expect.poll(() => w.clangd()?.pid !== before, { timeout: 30_000, interval: 50 }).toBe(true);
    expect(await w.errorsOf("lib/b.c")).toEqual([]);
  }, 120_000);
});
