// git status output cut at the cap: only whole records are parsed (a name cut in half, or a rename
// whose original path fell past the cut, is left out rather than shown wrong). The real tool on a
// real repository is in test/integration/tools/git-status-cut.test.ts.
import { describe, expect, it } from "vitest";
import { parsePorcelainV2 } from "../../../src/services/git/status-parser.ts";

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
