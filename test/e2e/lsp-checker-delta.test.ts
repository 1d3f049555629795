// pyright on the fixture shaped like the Python CLI library whose `include` leaves its tests out
// (test/fixtures/lsp-repos.ts), one fresh server: its first findReferences waits for the line it
// logs once it knows the project's files, and is the whole list; and a rename's error delta is the
// language's own checker's too: a rename whose new name a test already uses for a local variable
// breaks only that test, outside the server's program, and the answer counts it introduced, as
// pyright's CLI over the tests agrees. A transaction's commit is checked by the CLI the same way:
// one that breaks the tests through the package's re-export is counted, and a clean one is not.
import { readFile, symlink } from "node:fs/promises";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { filesAt, mentionsOf, pythonRepo } from "../fixtures/lsp-repos.ts";
import { lspFixture, type LspFixture, writeFiles } from "../helpers/lsp-fixture.ts";
import * as checks from "../helpers/lsp-repo-checks.ts";

const REPO = resolve(import.meta.dirname, "../..");
/** A loaded 2-core machine runs pyright's first analysis in tens of seconds. */
const SLOW = 240_000;

describe("pyright on a project whose include leaves its tests out", () => {
  let fx: LspFixture;
  const files = {
    ...pythonRepo(2).files,
    "tests/test_shadow.py": 'from clilib import echo\n\n\ndef test_shadow() -> None:\n    say = " x "\n    assert echo(say) == "x"\n',
  };
  beforeAll(async () => {
    fx = await lspFixture({});
    await writeFiles(fx.root, filesAt({ files, symbols: [], extensions: [".py"] }, fx.root));
    // The CLI the bridge runs is the workspace's, the same pyright as the server.
    await symlink(join(REPO, "node_modules"), join(fx.root, "node_modules"));
  }, SLOW);
  afterAll(async () => {
    await fx?.stop();
  });

  it(
    "a first findReferences on the fresh server waits until pyright knows the project's files, and is the whole list",
    async () => {
      const text = await fx.tools.text("findReferences", { file: "src/clilib/core.py", line: 1, symbol: "echo", verbosity: "minimal" });
      expect(text.split("\n")[0], text).toMatch(/ \(complete\):$/);
      const found = text.split("\n").flatMap((l) => /^([^\s:][^:]*):(\d+):\d+$/.exec(l.trim())?.slice(1, 3).join(":") ?? []);
      expect(found.sort()).toEqual([...mentionsOf(files, "echo", [".py"])].sort());
    },
    SLOW,
  );

  it(
    "counts the test's new error introduced, checked by pyright's CLI over the files that use the names",
    async () => {
      const text = await fx.tools.text("renameSymbol", { file: "src/clilib/core.py", line: 1, symbol: "echo", newName: "say" });
      const lines = text.split("\n");
      expect(lines[0], text).toMatch(/^Renamed `echo` to `say`: \d+ files written together\.$/);
      expect(lines[1], text).toMatch(
        /^Errors: [1-9]\d* introduced, 0 fixed \(.*; and by pyright \(CLI\) over \d+ file\(s\): \d+ introduced\)\.$/,
      );
      // Introduced: the bridge's own pyright run over the files before the write found no such error (the fixture starts clean).
      expect(text).toMatch(/\+ tests\/test_shadow\.py:6:\d+ error .*not callable/);
      const checked = checks.checkPython(fx.root);
      expect(checked.ok).toBe(false);
      expect(checked.output).toContain("test_shadow.py");
    },
    SLOW,
  );

  it(
    "a commit that breaks the tests through the package's re-export is counted by pyright's CLI, and a clean one is not",
    async () => {
      const commit = async (change: (text: string) => string) => {
        const { transactionId } = await fx.tools.data<{ transactionId: string }>("beginTransaction", {});
        const content = change(await readFile(join(fx.root, "src/clilib/core.py"), "utf8"));
        await fx.tools.text("stageEdit", { transactionId, filePath: "src/clilib/core.py", content });
        return fx.tools.text("commitTransaction", { transactionId });
      };
      // The tests call invoke("x") through `from clilib import Command`: outside pyright's include.
      const broken = await commit((t) => t.replace("def invoke(self, arg: str)", "def invoke(self, arg: int)"));
      expect(broken.split("\n")[1], broken).toMatch(
        /^Errors: [1-9]\d* introduced, 0 fixed \(.*by pyright \(CLI\) over \d+ file\(s\): [1-9]\d* introduced\)\.$/,
      );
      expect(broken).toMatch(/\+ tests\/test_plugin0\.py:6:\d+ error /);
      const clean = await commit((t) => t.replace("def invoke(self, arg: int)", "def invoke(self, arg: str)"));
      expect(clean.split("\n")[1], clean).toMatch(
        /^Errors: 0 introduced, [1-9]\d* fixed \(.*by pyright \(CLI\) over \d+ file\(s\): 0 introduced\)\.$/,
      );
      expect(checks.checkPython(fx.root).output).not.toContain("test_plugin0.py");
    },
    SLOW,
  );
});
