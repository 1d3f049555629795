// getGitStatus when git's output passes its cap: the result says `truncated`, and only whole
// records are parsed (a name cut in half, or a rename whose original path fell past the cut, is
// left out rather than shown wrong). The real tool runs with a small cap on a real repository.
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parsePorcelainV2 } from "../../src/services/git/status-parser.ts";
import { gitStatusTool } from "../../src/tools/git/get-git-status.ts";
import { gitToolset } from "../../src/tools/git/index.ts";
import { defineToolset } from "../../src/tools/platform/toolset.ts";
import { gitFixture, type GitFixture } from "../helpers/git-fixture.ts";
import { dispatcher } from "../helpers/tool-dispatch.ts";

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

describe("parsePorcelainV2 of cut output", () => {
  const header = "# branch.oid 0123456789abcdef0123456789abcdef01234567\0# branch.head main\0";
  const modified = "1 .M N... 100644 100644 100644 aaaaaaa bbbbbbb kept.txt\0";

  it("drops the record the cut fell in", () => {
    const out = `${header}${modified}1 .M N... 100644 100644 100644 aaaaaaa bbbbbbb half-of-a-na`;
    expect(parsePorcelainV2(out, { cut: true }).unstaged).toEqual([{ path: "kept.txt", change: "modified" }]);
  });

  it("drops a rename whose original path is past the cut, or cut itself", () => {
    const rename = "2 R. N... 100644 100644 100644 aaaaaaa aaaaaaa R100 new-name.txt\0";
    expect(parsePorcelainV2(`${header}${modified}${rename}`, { cut: true }).staged).toEqual([]);
    expect(parsePorcelainV2(`${header}${modified}${rename}old-na`, { cut: true }).staged).toEqual([]);
    expect(parsePorcelainV2(`${header}${rename}old-name.txt\0`, { cut: true }).staged).toEqual([
      { path: "new-name.txt", change: "renamed", from: "old-name.txt" },
    ]);
  });

  it("whole output parses as before", () => {
    expect(parsePorcelainV2(`${header}${modified}? new.txt\0`)).toMatchObject({
      branch: "main",
      unstaged: [{ path: "kept.txt" }],
      untracked: ["new.txt"],
    });
  });
});
