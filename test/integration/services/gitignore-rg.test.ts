// .gitignore in the built-in walk against ripgrep on the same tree: the same file sets for the whole
// workspace and for a subdirectory (whose parents' .gitignore files apply), with and without hidden
// files and ignore rules. Split from test/unit/services/gitignore.test.ts, which holds the rules.
import { mkdir, mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listFiles } from "../../../src/services/search/file-list.ts";
import { writeIgnoreTree } from "../../fixtures/ignore-tree.ts";
import { makeToolContext, type TestToolContext } from "../../helpers/tool-context.ts";

let root: string;
let ctx: TestToolContext;

beforeAll(async () => {
  root = join(await realpath(await mkdtemp(join(tmpdir(), "cib-ignore-"))), "ws");
  await mkdir(root);
  await writeIgnoreTree(root);
  ctx = await makeToolContext(root, { executables: ["rg"] });
});

afterAll(async () => {
  await rm(join(root, ".."), { recursive: true, force: true });
});

describe("the built-in walk and rg --files", () => {
  it.each([
    [".", false, true],
    [".", true, true],
    [".", false, false],
    [".", true, false],
    ["src", false, true],
    ["src/sub", false, true],
    ["vendor", true, true],
    ["docs", false, true],
  ])("list the same files in %s (hidden %s, gitignore %s)", async (dir, includeHidden, gitignore) => {
    const viaRg = await listFiles(ctx, dir, { includeHidden, gitignore });
    const builtIn = await listFiles(ctx, dir, { includeHidden, gitignore, builtIn: true });
    expect(viaRg.via).toBe("rg");
    expect(builtIn.via).toBe("built-in");
    expect(builtIn.files).toEqual(viaRg.files);
    expect(builtIn.files.length).toBeGreaterThan(0);
  });
});
