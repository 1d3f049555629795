// getGitStatus when git's output passes its cap: the result says `truncated`, and only whole
// records are parsed (a name cut in half, or a rename whose original path fell past the cut, is
// left out rather than shown wrong). The real tool runs with a small cap on a real repository; the
// parsing of cut output alone is in test/unit/services/git-status-cut.test.ts.
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gitStatusTool } from "../../../src/tools/git/get-git-status.ts";
import { gitToolset } from "../../../src/tools/git/index.ts";
import { defineToolset } from "../../../src/tools/platform/toolset.ts";
import { gitFixture, type GitFixture } from "../../helpers/git-fixture.ts";
import { dispatcher } from "../../helpers/tool-dispatch.ts";

let base: string;
let fx: GitFixture;

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), "cib-git-cut-")));
  fx = await gitFixture(base);
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

interface Status {
  untracked: string[];
  unstaged: { path: string }[];
  clean: boolean;
  truncated?: true;
}

describe("getGitStatus over its output cap", () => {
  it("says truncated and lists only whole names; under the cap it says nothing of the kind", async () => {
    const dir = await fx.repo(join(base, "many"), { "tracked.txt": "t\n" });
    await writeFile(join(dir, "tracked.txt"), "changed\n");
    await mkdir(join(dir, "new"));
    const names = Array.from({ length: 300 }, (_, i) => `new/untracked-file-number-${String(i).padStart(3, "0")}.txt`);
    await Promise.all(names.map((n) => writeFile(join(dir, n), "u\n")));

    const small = defineToolset({ ...gitToolset, purpose: "getGitStatus with a 4 KB cap on git's output", tools: [gitStatusTool(4096)] });
    const cut = await (await dispatcher(dir, { toolsets: [small], runtime: fx.runtime() })).data<Status>("getGitStatus");
    expect(cut.truncated).toBe(true);
    expect(cut.unstaged).toEqual([{ path: "tracked.txt", change: "modified" }]);
    // About 4096 / 38 bytes per record: far fewer than 300, each one whole.
    expect(cut.untracked.length).toBeGreaterThan(50);
    expect(cut.untracked.length).toBeLessThan(120);
    expect(cut.untracked).toEqual(names.slice(0, cut.untracked.length));

    const whole = await (await dispatcher(dir, { toolsets: [gitToolset], runtime: fx.runtime() })).data<Status>("getGitStatus");
    expect(whole.truncated).toBeUndefined();
    expect(whole.untracked).toEqual(names);
  });
});
