// pyright on the fixture shaped like the Python CLI library whose `include` leaves its tests out
// (test/fixtures/lsp-repos.ts), one fresh server: its first findReferences waits for the line it
// logs once it knows the project's files, and is the whole list; and a rename's error delta is the
// language's own checker's too: a rename whose new name a test already uses for a local variable
// breaks only that test, outside the server's program, and the answer counts it introduced, as
// pyright's CLI over the tests agrees.
import { symlink } from "node:fs/promises";
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
    expect(checks.checkPython(fx.root).ok).toBe(true);
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
      expect(text).toMatch(/\+ tests\/test_shadow\.py:6:\d+ error .*not callable/);
      const checked = checks.checkPython(fx.root);
      expect(checked.ok).toBe(false);
      expect(checked.output).toContain("test_shadow.py");
    },
    SLOW,
  );
});
