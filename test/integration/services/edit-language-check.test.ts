// An edit's error delta checked by the language's own checker (src/services/diagnostics/edit-check.ts)
// with the real go vet and pyright CLI: an edit that breaks other packages or files the language
// server was not asked about is never "0 introduced"; go runs in the environment that keeps it from
// running programs, so a cgo package is not compiled with the C compiler.
import { readFile, symlink, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EditOutcome } from "../../../src/lsp/apply-edit.ts";
import { languageEditCheck } from "../../../src/services/diagnostics/edit-check.ts";
import { languageChecker, runLanguageCheck } from "../../../src/services/diagnostics/language-check.ts";
import { goRepo, pythonRepo } from "../../fixtures/lsp-repos.ts";
import { missingProgram } from "../../helpers/missing-program.ts";
import { makeToolContext } from "../../helpers/tool-context.ts";
import { tempWorkspaces, type TempWorkspaces } from "../../helpers/temp-workspace.ts";

const REPO = resolve(import.meta.dirname, "../../..");

let temp: TempWorkspaces;
beforeAll(async () => {
  temp = await tempWorkspaces("cib-edit-check-");
});
afterAll(async () => {
  await temp.remove();
});

/** What a written edit's outcome looks like before the checker's part: the server found nothing. */
function writtenOutcome(): EditOutcome {
  return { files: [], introduced: [], fixed: [], checkedFiles: 1, notChecked: 0, late: [], verified: true, written: true, digest: "0" };
}

/** Writes `file` with `from` replaced by `to`, as a partial rename would. */
async function rewrite(root: string, file: string, from: string, to: string): Promise<void> {
  const text = await readFile(join(root, file), "utf8");
  await writeFile(join(root, file), text.replace(from, to));
}

const noGo = missingProgram("go", ["version"]);
describe.skipIf(noGo !== undefined)("go vet after an edit", () => {
  it("finds the packages (and the tests) an edit of another one broke, and counts them introduced", { timeout: 120_000 }, async () => {
    const repo = goRepo();
    // A cgo package: with cgo on, go vet would run the C compiler over its preamble, which fails.
    repo.files["native/native.go"] = 'package native\n\n// #error the C compiler ran\nimport "C"\n\nfunc One() int { return 1 }\n';
    const root = await temp.make("go", repo.files);
    const ctx = await makeToolContext(root);
    const vet = languageChecker("go");
    if (vet === undefined) throw new Error("no checker for go");
    expect(await runLanguageCheck(ctx, vet, { files: [], cwd: "" })).toEqual({ checker: "go vet", errors: [], files: 0, notChecked: 0 });
    const check = languageEditCheck(ctx, { languageId: "go", projectRoot: "", files: ["core/core.go"] });
    if (check === undefined) throw new Error("no checker for go");
    await check.beforeWrite();
    await rewrite(root, "core/core.go", "func ParseFlag(", "func ParseFlg(");
    const outcome = writtenOutcome();
    await check.settle(outcome);
    expect(outcome.checks).toEqual([{ checker: "go vet", scope: "the module", introduced: 5 }]);
    expect(outcome.introduced.map((e) => e.file).sort()).toEqual([
      "cmd0/cmd.go",
      "cmd1/cmd.go",
      "cmd2/cmd.go",
      "cmd3/cmd.go",
      "core/core_test.go",
    ]);
    expect(String(outcome.introduced[0]?.diagnostic.message)).toMatch(/ParseFlag/);
  });
});

describe("pyright's CLI after an edit", () => {
  it("checks the files it is given even where the project's include leaves them out", { timeout: 180_000 }, async () => {
    const repo = pythonRepo(2);
    const root = await temp.make("py", repo.files);
    await symlink(join(REPO, "node_modules"), join(root, "node_modules"));
    const ctx = await makeToolContext(root);
    const files = ["src/clilib/core.py", "tests/test_plugin0.py", "tests/test_plugin1.py"];
    const check = languageEditCheck(ctx, { languageId: "python", projectRoot: "", files });
    if (check === undefined) throw new Error("no checker for python");
    await check.beforeWrite();
    // The tests call echo with one argument; the edit gives it a second, required one.
    await rewrite(root, "src/clilib/core.py", "def echo(message: str)", "def echo(message: str, end: str)");
    const outcome = writtenOutcome();
    await check.settle(outcome);
    expect(outcome.checks).toEqual([{ checker: "pyright (CLI)", scope: "3 file(s)", introduced: 3 }]);
    expect(outcome.introduced.map((e) => e.file).sort()).toEqual(["src/clilib/core.py", "tests/test_plugin0.py", "tests/test_plugin1.py"]);
  });
});
