// A `.clangd` is read by a running clangd as it goes, so one written mid-session must pass the same
// guard as one there at the start (src/lsp/clangd-config-guard.ts): the watcher hears it, the guard
// looks again, and a clangd whose guarded arguments now differ is stopped and started with them.
// The hostile config here names a compilation database outside the workspace, whose flags turn a
// line of the file into an #error (and beside which clangd would write its index): with the guard,
// the restarted clangd reads no project config, so the file stays clean and nothing is written outside.
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lspFixture, type LspFixture } from "../helpers/lsp-fixture.ts";
import { missingProgram } from "../helpers/missing-program.ts";

const SOURCE = "#ifdef FROM_OUTSIDE\n#error the outside database was used\n#endif\nint answer(void) { return 42; }\n";

describe.skipIf(missingProgram("clangd", ["--version"]) !== undefined)("a .clangd written while clangd runs", () => {
  let fx: LspFixture;
  let outside: string;
  beforeAll(async () => {
    outside = await realpath(await mkdtemp(join(tmpdir(), "clangd-outside-db-")));
    fx = await lspFixture({ "a.c": SOURCE, "main.c": "int answer(void);\nint main(void) { return answer(); }\n" });
    const entry = (file: string, defines: string[]) => ({
      directory: fx.root,
      file: join(fx.root, file),
      arguments: ["cc", ...defines, "-c", file],
    });
    await writeFile(join(fx.root, "compile_commands.json"), JSON.stringify([entry("a.c", []), entry("main.c", [])]));
    await writeFile(join(outside, "compile_commands.json"), JSON.stringify([entry("a.c", ["-DFROM_OUTSIDE"])]));
  }, 60_000);
  afterAll(async () => {
    await fx?.stop();
    await rm(outside, { recursive: true, force: true });
  });

  const clangd = () => fx.lsp.status().servers.find((s) => s.id === "clangd");
  const errorsOf = async (file: string) =>
    (await fx.lsp.diagnosticsFor(file, { signal: AbortSignal.timeout(60_000) })).items
      .filter((d) => d.severity === 1)
      .map((d) => d.message);

  it("restarts clangd with the guarded arguments, which keep it from obeying the config", async () => {
    expect(await errorsOf("a.c")).toEqual([]);
    const before = clangd()?.pid;
    expect(before).toBeTypeOf("number");

    await writeFile(join(fx.root, ".clangd"), `CompileFlags:\n  CompilationDatabase: ${outside}\n`);
    // The watcher's batch, the guard's walk and the kill: bounded by the poll's timeout.
    await expect.poll(() => clangd()?.pid !== before, { timeout: 30_000, interval: 50 }).toBe(true);

    expect(await errorsOf("a.c")).toEqual([]);
    expect(clangd()).toMatchObject({ state: "running" });
    expect(clangd()?.pid).not.toBe(before);
    expect(existsSync(join(outside, ".cache"))).toBe(false);
  }, 120_000);
});

// What the watch used to miss: a folder made with its files in one go (a checkout, cp -r) showed
// only the folder to the watcher, so a .clangd in it was never guarded; and build/ (where CMake
// writes the compilation database, and clangd its index beside it) was not watched at all.
describe.skipIf(missingProgram("clangd", ["--version"]) !== undefined)("clangd's config and database folders made while it runs", () => {
  let fx: LspFixture;
  let outside: string;
  beforeAll(async () => {
    outside = await realpath(await mkdtemp(join(tmpdir(), "clangd-outside-db-")));
    fx = await lspFixture({ "a.c": SOURCE, "build/keep": "" });
    const entry = (file: string, defines: string[]) => ({
      directory: fx.root,
      file: join(fx.root, file),
      arguments: ["cc", ...defines, "-c", file],
    });
    await writeFile(join(fx.root, "build/compile_commands.json"), JSON.stringify([entry("a.c", []), entry("lib/b.c", [])]));
    await writeFile(join(outside, "compile_commands.json"), JSON.stringify([entry("lib/b.c", ["-DFROM_OUTSIDE"])]));
  }, 60_000);
  afterAll(async () => {
    await fx?.stop();
    await rm(outside, { recursive: true, force: true });
  });

  const clangd = () => fx.lsp.status().servers.find((s) => s.id === "clangd");
  const errorsOf = async (file: string) =>
    (await fx.lsp.diagnosticsFor(file, { signal: AbortSignal.timeout(60_000) })).items
      .filter((d) => d.severity === 1)
      .map((d) => d.message);

  it("hears a symlink put on the index's path in build/, and restarts clangd with its index in memory", async () => {
    expect(await errorsOf("a.c")).toEqual([]);
    const before = clangd();
    expect(before?.pid).toBeTypeOf("number");
    // clangd may have made the real folder already (its index of the database in build/).
    await rm(join(fx.root, "build/.cache"), { recursive: true, force: true });
    await symlink(outside, join(fx.root, "build/.cache"));
    await expect.poll(() => clangd()?.pid !== before?.pid, { timeout: 30_000, interval: 50 }).toBe(true);
    expect(await errorsOf("a.c")).toEqual([]);
  }, 120_000);

  it("guards a .clangd that arrives inside a new folder together with the folder", async () => {
    const before = clangd()?.pid;
    // The folder and its files in one go, before the watcher's batch looks at the folder.
    await mkdir(join(fx.root, "lib"));
    await Promise.all([
      writeFile(join(fx.root, "lib/.clangd"), `CompileFlags:\n  CompilationDatabase: ${outside}\n`),
      writeFile(join(fx.root, "lib/b.c"), SOURCE.replace("answer", "other")),
    ]);
    await expect.poll(() => clangd()?.pid !== before, { timeout: 30_000, interval: 50 }).toBe(true);
    expect(await errorsOf("lib/b.c")).toEqual([]);
  }, 120_000);
});
