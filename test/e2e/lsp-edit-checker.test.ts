// Every multi-file edit verified after the fact by TypeScript's own compiler, on the solution-style
// fixture (test/fixtures/lsp-repos.ts: a build and a spec project, tests importing the code), one
// bridge for the file: a rename whose new name collides in a spec test, a refactoring
// (typescript-language-server's move to a new file) that leaves a spec test importing what moved,
// and a transaction's commit that changes a signature a spec test calls. Each answer names the
// errors introduced and the compiler that found them (tsgo per tsconfig project); each is confirmed
// by running the compiler over the spec project here.
import { spawnSync } from "node:child_process";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { filesAt, solutionTsRepo } from "../fixtures/lsp-repos.ts";
import { lspFixture, type LspFixture, writeFiles } from "../helpers/lsp-fixture.ts";
import { TSGO } from "../helpers/lsp-repo-checks.ts";

/** A loaded 2-core machine starts typescript-language-server's project in tens of seconds. */
const SLOW = 240_000;
const lines = (...l: string[]) => `${l.join("\n")}\n`;
const EXTRA: Record<string, string> = {
  "src/format.ts": lines(
    "export function pad(value: string): string {",
    "  return ` ${value} `;",
    "}",
    "",
    "export function shout(value: string): string {",
    "  return pad(value).toUpperCase();",
    "}",
  ),
  "test/format.test.ts": lines(
    'import { pad, shout } from "../src/format.js";',
    "",
    'if (pad("a") !== " a ") throw new Error("pad");',
    'if (shout("a") !== " A ") throw new Error("shout");',
  ),
  "src/units.ts": lines("export function toCents(value: number): number {", "  return Math.round(value * 100);", "}"),
  "test/units.test.ts": lines('import { toCents } from "../src/units.js";', "", 'if (toCents(1.5) !== 150) throw new Error("toCents");'),
};
const BY_TSGO = "tsgo \\(CLI\\) over 2 tsconfig projects \\(tsconfig\\.build\\.json, tsconfig\\.spec\\.json\\)";

/** The spec project's errors by the compiler itself ("file(line,col): error TSn: ..."); it writes nothing. */
function specErrors(root: string): string {
  const run = spawnSync(TSGO, ["-p", "tsconfig.spec.json", "--noEmit", "--pretty", "false"], {
    cwd: root,
    encoding: "utf8",
    timeout: 120_000,
  });
  return `${run.stdout}${run.stderr}`;
}

describe("multi-file edits checked by TypeScript's compiler per tsconfig project", () => {
  let fx: LspFixture;
  let refactorServerReady: Promise<unknown> = Promise.resolve();
  beforeAll(async () => {
    fx = await lspFixture({});
    const repo = solutionTsRepo(2);
    await writeFiles(fx.root, filesAt({ ...repo, files: { ...repo.files, ...EXTRA } }, fx.root));
    // typescript-language-server (the refactoring server) starts while the rename runs.
    refactorServerReady = fx.tools
      .call("refactorAnalyze", { file: "src/format.ts", startLine: 1, endLine: 3 })
      .catch((err: unknown) => err);
  }, SLOW);
  afterAll(async () => {
    await refactorServerReady;
    await fx?.stop();
  });

  it(
    "a rename whose new name collides in a spec test names the errors, the compiler's too",
    async () => {
      const text = await fx.tools.text("renameSymbol", { file: "src/testing.ts", line: 1, symbol: "assertEqual", newName: "route0" });
      const [head, errors] = text.split("\n");
      expect(head, text).toMatch(/^Renamed `assertEqual` to `route0`: \d+ files written together\.$/);
      expect(errors, text).toMatch(
        new RegExp(
          `^Errors: [1-9]\\d* introduced, 0 fixed \\(\\d+ files checked by typescript-go .*; and by ${BY_TSGO}: [1-9]\\d* introduced\\)\\.$`,
        ),
      );
      expect(text).toMatch(/\+ src\/routes\/route0\.test\.ts:\d+:\d+ error .*Duplicate identifier 'route0'/);
      expect(specErrors(fx.root)).toMatch(/src\/routes\/route0\.test\.ts\(\d+,\d+\): error TS2300: Duplicate identifier 'route0'/);
    },
    SLOW,
  );

  it(
    "a refactoring that leaves a spec test importing what it moved is counted by the compiler, not by waiting on the refactoring server",
    async () => {
      await refactorServerReady;
      const text = await fx.tools.text("refactorExtractFunction", { file: "src/format.ts", startLine: 1, endLine: 3, kind: "moveToFile" });
      const [head, errors] = text.split("\n");
      expect(head, text).toMatch(/^Applied "Move to a new file": 2 files written together\.$/);
      expect(errors, text).toMatch(
        new RegExp(
          `^Errors: [1-9]\\d* introduced, 0 fixed \\(on the files as written, counted by the language's checker; typescript-language-server .* not asked; by ${BY_TSGO}: [1-9]\\d* introduced, covering the \\d+ file\\(s\\) the server did not check\\)\\.$`,
        ),
      );
      expect(text).toMatch(/\+ test\/format\.test\.ts:1:\d+ error .*'pad'/);
      expect(await readFile(join(fx.root, "test/format.test.ts"), "utf8")).toBe(EXTRA["test/format.test.ts"]);
      expect(specErrors(fx.root)).toMatch(/test\/format\.test\.ts\(1,\d+\): error TS\d+: .*'pad'/);
    },
    SLOW,
  );

  it(
    "a transaction's commit that changes a signature a spec test calls names the error, and the compiler agrees",
    async () => {
      const { transactionId } = await fx.tools.data<{ transactionId: string }>("beginTransaction", {});
      await fx.tools.text("stageEdit", {
        transactionId,
        filePath: "src/units.ts",
        content: lines("export function toCents(value: string): number {", "  return Math.round(Number(value) * 100);", "}"),
      });
      const text = await fx.tools.text("commitTransaction", { transactionId });
      const [head, errors] = text.split("\n");
      expect(head, text).toBe(`Committed ${transactionId}: 1 file written together.`);
      expect(errors, text).toMatch(new RegExp(`^Errors: 1 introduced, 0 fixed \\(.*by ${BY_TSGO}: 1 introduced.*\\)\\.$`));
      expect(text).toMatch(/\+ test\/units\.test\.ts:3:\d+ error .*TS2345/);
      expect(specErrors(fx.root)).toMatch(/test\/units\.test\.ts\(3,\d+\): error TS2345/);
    },
    SLOW,
  );
});
