// clangd reads a file another includes from disk, never its unsaved content: a dry-run rename of a
// function declared in a header, predicted file by file, made every .c file that includes the header
// call the new name undeclared (cJSON: 11 errors predicted for a rename that compiles). Its tests
// include a .c file itself (through a header), so any file can be the one read from disk. The
// prediction now leaves out the files that include a changed file, names them and why, and still
// reports what it can see: a clash inside the edited file. Real clangd with a compile database.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { lspFixture, type LspFixture } from "../helpers/lsp-fixture.ts";
import { checkC } from "../helpers/lsp-repo-checks.ts";
import { missingProgram } from "../helpers/missing-program.ts";

const lines = (...l: string[]) => `${l.join("\n")}\n`;
const UNITS = ["src/lib.c", "src/user.c", "tests/test_helper.c"];

function files(): Record<string, string> {
  return {
    "include/lib.h": lines("#ifndef LIB_H", "#define LIB_H", "int lib_parse(const char *text);", "#endif"),
    "src/lib.c": lines(
      '#include "lib.h"',
      "static int helper(int x) { return x + 1; }",
      "static int helper_two(int x) { return x * 2; }",
      "int lib_parse(const char *text) { return helper(text[0]) + helper_two(1); }",
    ),
    "src/user.c": lines('#include "lib.h"', 'int use(void) { return lib_parse("1"); }'),
    "tests/common.h": lines('#include "../src/lib.c"'),
    "tests/test_helper.c": lines('#include "common.h"', "int main(void) { return helper(1) == 2 ? 0 : 1; }"),
  };
}

function compileDatabase(root: string): string {
  return JSON.stringify(
    UNITS.map((unit) => ({
      directory: `${root}/build`,
      file: `${root}/${unit}`,
      arguments: ["cc", "-std=c11", `-I${root}/include`, "-c", `${root}/${unit}`, "-o", `${unit.replaceAll("/", "_")}.o`],
    })),
  );
}

describe.skipIf(missingProgram("clangd", ["--version"]) !== undefined || missingProgram("cc", ["--version"]) !== undefined)(
  "clangd's predictions for an edit of an included file",
  () => {
    let fx: LspFixture;
    beforeEach(async () => {
      fx = await lspFixture(files());
      await fx.write("build/compile_commands.json", compileDatabase(fx.root));
    });
    afterEach(async () => {
      await fx?.stop();
    });

    it("a header rename's dry run predicts no error the written rename does not have, names the includers it cannot predict, and the rename compiles", async () => {
      const dry = await fx.tools.text("renameSymbol", {
        file: "include/lib.h",
        line: 3,
        symbol: "lib_parse",
        newName: "lib_read",
        dryRun: true,
      });
      const errors = dry.split("\n")[1] ?? "";
      expect(errors, dry).toMatch(/^Errors: 0 introduced, 0 fixed \(\d+ files checked by clangd/);
      expect(errors, dry).toMatch(
        /not predicted for src\/lib\.c, src\/user\.c: they include, directly or not, one of include\/lib\.h, src\/lib\.c, src\/user\.c, which clangd [\d.]+ reads from disk, not the edit's unsaved content; a written edit is checked as written/,
      );
      expect(dry).not.toMatch(/[Ii]mplicit declaration/);
      const written = await fx.tools.text("renameSymbol", { file: "include/lib.h", line: 3, symbol: "lib_parse", newName: "lib_read" });
      expect(written.split("\n").slice(0, 2).join("\n"), written).toMatch(
        /^Renamed `lib_parse` to `lib_read`: 3 files written together\.\nErrors: 0 introduced, 0 fixed \(\d+ files checked by clangd [\d.]+, on the files as written, after the server caught up\)\.$/,
      );
      const compiled = checkC(fx.root);
      expect(compiled.ok, compiled.output).toBe(true);
    }, 120_000);

    it("a clash inside the edited .c file is still predicted, and the test that includes that file is named as not predicted", async () => {
      const dry = await fx.tools.text("renameSymbol", {
        file: "src/lib.c",
        line: 2,
        symbol: "helper",
        newName: "helper_two",
        dryRun: true,
      });
      expect(dry, dry).toMatch(/^Errors: [1-9]\d* introduced/m);
      expect(dry).toMatch(/\+ src\/lib\.c:\d+:\d+ error .*[Rr]edefinition of 'helper_two'/);
      expect(dry).toMatch(
        /not predicted for tests\/test_helper\.c: they include, directly or not, one of src\/lib\.c, tests\/test_helper\.c, which clangd/,
      );
    }, 120_000);
  },
);
