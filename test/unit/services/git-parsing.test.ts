// The pure parts of the git and GitHub tools: porcelain and record parsers, ref checks, hotspot
// counting and the failed-step log reshaping (the config guard's are in test/unit/security/git-policy.test.ts).
import { describe, expect, it } from "vitest";
import { parseBranches } from "../../../src/services/git/branch-list.ts";
import { countHotspots } from "../../../src/services/git/hotspots.ts";
import { parseLog } from "../../../src/services/git/log-format.ts";
import { branchName, remoteName, revision, revisionRange } from "../../../src/services/git/refs.ts";
import { parsePorcelainV2 } from "../../../src/services/git/status-parser.ts";
import { failedStepLogs } from "../../../src/services/github/failed-step-logs.ts";

describe("parsePorcelainV2", () => {
  it("reads headers, renames with their origin, spaces in names, untracked and conflicts", () => {
    const hash = "6178079822";
    const out = [
      "# branch.oid e76b1c4445855a526d066a7cf0aeb5056c5c116f",
      "# branch.head feature/x",
      "# branch.upstream origin/feature/x",
      "# branch.ab +2 -1",
      `2 R. N... 100644 100644 100644 ${hash} ${hash} R100 c d.txt`,
      "b.txt",
      `1 .M N... 100644 100644 100644 ${hash} ${hash} sp ace.txt`,
      `1 AM N... 000000 100644 100644 ${hash} ${hash} new.ts`,
      `u UU N... 100644 100644 100644 100644 ${hash} ${hash} ${hash} both.txt`,
      "? n ew.txt",
      "",
    ].join("\0");
    expect(parsePorcelainV2(out)).toEqual({
      branch: "feature/x",
      commit: "e76b1c4445855a526d066a7cf0aeb5056c5c116f",
      upstream: "origin/feature/x",
      ahead: 2,
      behind: 1,
      staged: [
        { path: "c d.txt", change: "renamed", from: "b.txt" },
        { path: "new.ts", change: "added" },
      ],
      unstaged: [
        { path: "sp ace.txt", change: "modified" },
        { path: "new.ts", change: "modified" },
      ],
      untracked: ["n ew.txt"],
      conflicts: [{ path: "both.txt", conflict: "both modified" }],
    });
  });

  it("knows a detached HEAD and a repository without commits", () => {
    expect(parsePorcelainV2("# branch.oid (initial)\0# branch.head main\0")).toMatchObject({
      branch: "main",
      commit: null,
      upstream: null,
      ahead: 0,
    });
    expect(parsePorcelainV2("# branch.oid abc\0# branch.head (detached)\0")).toMatchObject({ branch: null, commit: "abc" });
  });
});

describe("records", () => {
  it("keeps authors and subjects with tabs, pipes and quotes whole", () => {
    expect(parseLog('abc\x1f2024-01-02\x1fA "B" | C\x1fSubject\twith tab\x1e\ndef\x1f2024-01-01\x1fD\x1fx\x1e\n')).toEqual([
      { hash: "abc", date: "2024-01-02", author: 'A "B" | C', subject: "Subject\twith tab" },
      { hash: "def", date: "2024-01-01", author: "D", subject: "x" },
    ]);
  });

  it("lists branches with tracking, skipping the remote HEAD pointer", () => {
    const rec = (...f: string[]) => `${f.join("\x1f")}\x1e\n`;
    const out =
      rec("*", "refs/heads/main", "a1", "origin/main", "ahead 1, behind 2", "2024-01-02", "s1") +
      rec(" ", "refs/heads/old", "b2", "origin/old", "gone", "2024-01-01", "s2") +
      rec(" ", "refs/remotes/origin/HEAD", "a1", "", "", "2024-01-02", "s1") +
      rec(" ", "refs/remotes/origin/main", "c3", "", "", "2024-01-02", "s3");
    expect(parseBranches(out)).toEqual({
      current: "main",
      local: [
        { name: "main", commit: "a1", date: "2024-01-02", subject: "s1", upstream: "origin/main", ahead: 1, behind: 2 },
        { name: "old", commit: "b2", date: "2024-01-01", subject: "s2", upstream: "origin/old", upstreamGone: true },
      ],
      remote: [{ name: "origin/main", commit: "c3", date: "2024-01-02", subject: "s3" }],
    });
  });

  it("counts hotspots by commits, then churn; binary files count commits only", () => {
    const out = [
      "\x1e",
      "\n3\t1\ta.ts",
      "2\t0\tb with space.ts",
      "\x1e",
      "\n1\t1\ta.ts",
      "-\t-\timg.png",
      "\x1e",
      "\n5\t5\tb with space.ts",
      "",
    ].join("\0");
    expect(countHotspots(out)).toEqual({
      commits: 3,
      files: [
        { path: "b with space.ts", commits: 2, added: 7, deleted: 5 },
        { path: "a.ts", commits: 2, added: 4, deleted: 2 },
        { path: "img.png", commits: 1, added: 0, deleted: 0 },
      ],
    });
  });
});

describe("ref checks", () => {
  it.each(["main", "feature/login-fix", "v1.2.3", "user/jo_e/x", "a.b"])("accepts branch %s", (name) => {
    expect(branchName(name)).toBe(name);
  });

  it.each([
    ["-b", "starts with"],
    ["--upload-pack=evil", "starts with"],
    ["a..b", '".."'],
    ["a b", "space"],
    ["a\nb", "control"],
    ["a\0b", "control"],
    ["a~1", "~"],
    ["a:b", ":"],
    ["a@{1}", "reserved"],
    ["HEAD", "reserved"],
    ["/a", "empty path component"],
    ["a//b", "empty path component"],
    ["a/", "empty path component"],
    [".hidden", 'starts with "."'],
    ["x.lock", ".lock"],
    ["a.", 'ends with "."'],
    ["x".repeat(256), "longer than"],
    ["", "empty"],
  ])("refuses branch %j (%s)", (name, why) => {
    expect(() => branchName(name)).toThrow(expect.objectContaining({ code: "invalid_ref", message: expect.stringContaining(why) }));
  });

  it("accepts revisions git understands and refuses options, control characters and ranges", () => {
    for (const rev of ["HEAD~2", "v1.0^{commit}", "main@{yesterday}", "a1b2c3d", "origin/main"]) expect(revision(rev)).toBe(rev);
    for (const rev of ["-c", "--output=/tmp/x", "a\nb", "a\0b", "a..b", "x".repeat(513)])
      expect(() => revision(rev)).toThrow(expect.objectContaining({ code: "invalid_ref" }));
  });

  it("checks each side of a range", () => {
    expect(revisionRange("main..HEAD")).toBe("main..HEAD");
    expect(revisionRange("main...feature")).toBe("main...feature");
    expect(revisionRange("v1.0..")).toBe("v1.0..");
    expect(revisionRange("HEAD")).toBe("HEAD");
    for (const range of ["..", "main..-x", "-x..main", "a..b..c", "main..a\nb"])
      expect(() => revisionRange(range)).toThrow(expect.objectContaining({ code: "invalid_ref" }));
  });

  it("takes remote names, never URLs or options", () => {
    expect(remoteName("origin")).toBe("origin");
    for (const r of ["-x", "--upload-pack=x", "https://evil/x", "../x", "a b", "ext::sh"])
      expect(() => remoteName(r)).toThrow(expect.objectContaining({ code: "invalid_ref" }));
  });
});

describe("failedStepLogs", () => {
  it("groups by job and step, drops timestamps and colour codes, keeps each step's end", () => {
    const raw = [
      "build\tRun tests\t2024-05-01T10:00:00.1234567Z \x1b[31mFAIL\x1b[0m a.test.ts",
      "build\tRun tests\t2024-05-01T10:00:01.0000000Z expected 1 to be 2",
      "lint\tRun lint\t2024-05-01T10:00:02Z line1",
      "lint\tRun lint\t2024-05-01T10:00:02Z line2",
      "lint\tRun lint\t2024-05-01T10:00:02Z line3",
      "",
    ].join("\n");
    expect(failedStepLogs(raw, 2)).toBe(
      [
        "== build / Run tests",
        "FAIL a.test.ts",
        "expected 1 to be 2",
        "",
        "== lint / Run lint",
        "[1 earlier lines left out]",
        "line2",
        "line3",
        "",
      ].join("\n"),
    );
  });
});
