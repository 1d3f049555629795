// The git toolset's review tools on real repositories: getPRTemplate fills the repository's own template with
// the branch's commits and files (several templates, none at all), getDiffFromHandoff diffs from
// the commit HEAD was on when setHandoffNote wrote the note to the working tree.
import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { notesToolset } from "../../../src/tools/notes/index.ts";
import { gitToolset } from "../../../src/tools/git/index.ts";
import { gitFixture, type GitFixture } from "../../helpers/git-fixture.ts";
import { dispatcher } from "../../helpers/tool-dispatch.ts";

let base: string;
let fx: GitFixture;

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), "cib-review-")));
  fx = await gitFixture(base);
});
afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

/** A commit dated `at` (seconds since the epoch), author and committer alike. */
function commitAt(dir: string, at: number, message: string): void {
  const date = `@${at} +0000`;
  execFileSync("git", ["commit", "--quiet", "-am", message], {
    cwd: dir,
    env: { ...fx.env, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date },
  });
}

const TEMPLATE = ["## Summary", "<!-- What does this change and why? -->", "", "## Testing", "- [ ] unit tests", ""].join("\n");

describe("getPRTemplate", () => {
  it("fills the template under its summary heading with the branch's commits and files since main", async () => {
    const dir = await fx.repo(join(base, "pr"), {
      "README.md": "# app\n",
      "src/app.ts": "export const a = 1;\n",
      ".github/pull_request_template.md": TEMPLATE,
    });
    fx.git(dir, "switch", "--quiet", "-c", "feature/limits");
    await writeFile(join(dir, "src/app.ts"), "export const a = 2;\nexport const limit = 10;\n");
    fx.git(dir, "commit", "--quiet", "-am", "Raise the limit");
    await writeFile(join(dir, "README.md"), "# app\n\nLimits are configurable.\n");
    fx.git(dir, "commit", "--quiet", "-am", "Document the limit");
    const d = await dispatcher(dir, { toolsets: [gitToolset], runtime: fx.runtime() });
    const text = await d.text("getPRTemplate", {});
    const hashes = fx.git(dir, "log", "--reverse", "--format=%h", "main..HEAD").trim().split("\n");
    expect(text.split("\n")).toEqual([
      "Branch feature/limits: 2 commits and 2 changed files since main.",
      "",
      '=== .github/pull_request_template.md (filled under "## Summary") ===',
      "## Summary",
      "<!-- What does this change and why? -->",
      `- Raise the limit (${hashes[0]})`,
      `- Document the limit (${hashes[1]})`,
      "",
      "Files changed (2):",
      "- README.md (+2 -0)",
      "- src/app.ts (+2 -1)",
      "",
      "## Testing",
      "- [ ] unit tests",
    ]);
    // A folder of templates: each is offered, filled.
    await mkdir(join(dir, "docs/PULL_REQUEST_TEMPLATE"), { recursive: true });
    await writeFile(join(dir, "docs/PULL_REQUEST_TEMPLATE/bugfix.md"), "Fixes #\n");
    const several = await d.text("getPRTemplate", { base: "main" });
    expect(several).toContain("=== docs/PULL_REQUEST_TEMPLATE/bugfix.md (the branch's summary put first (no summary heading)) ===");
    expect(several).toContain("2 templates: pick the one that fits the change.");
    const unknownBase = await d.failure("getPRTemplate", { base: "release" });
    expect(unknownBase.error).toMatch(/release/);
  });

  it("says when the repository has no template, and still gives the branch's summary", async () => {
    const dir = await fx.repo(join(base, "bare"), { "lib.py": "x = 1\n" });
    fx.git(dir, "switch", "--quiet", "-c", "fix");
    await writeFile(join(dir, "lib.py"), "x = 2\n");
    fx.git(dir, "commit", "--quiet", "-am", "Fix x");
    const d = await dispatcher(dir, { toolsets: [gitToolset], runtime: fx.runtime() });
    const text = await d.text("getPRTemplate", {});
    expect(text).toContain(
      "No pull request template in this repository (looked for pull_request_template.md and PULL_REQUEST_TEMPLATE/ in .github/, docs/, the root)",
    );
    expect(text).toMatch(/- Fix x \([0-9a-f]+\)\n\nFiles changed \(1\):\n- lib\.py \(\+1 -1\)/);
  });
});

describe("getDiffFromHandoff", () => {
  it("diffs from HEAD's commit when the note was written to the working tree, naming commits since and untracked files", async () => {
    const dir = await fx.repo(join(base, "handoff"), { "notes.txt": "one\n", "src/core.ts": "export const v = 1;\n" });
    const now = Math.floor(Date.now() / 1000);
    await writeFile(join(dir, "notes.txt"), "one\ntwo\n");
    commitAt(dir, now - 3600, "Before the note");
    const d = await dispatcher(dir, { toolsets: [gitToolset, notesToolset], runtime: fx.runtime() });
    expect((await d.failure("getDiffFromHandoff", {})).error).toContain("no handoff note");
    await d.data("setHandoffNote", { note: "Next: bump v." });
    // Committed after the note (dated a few seconds on: git's dates are whole seconds).
    await writeFile(join(dir, "src/core.ts"), "export const v = 2;\n");
    commitAt(dir, now + 5, "Bump v");
    await writeFile(join(dir, "notes.txt"), "one\ntwo\nthree\n");
    await writeFile(join(dir, "new.txt"), "fresh\n");
    const text = await d.text("getDiffFromHandoff", {});
    const before = fx.git(dir, "rev-parse", "--short=10", "HEAD~1").trim();
    expect(text.split("\n")[0]).toMatch(
      new RegExp(`^Since the handoff note of \\S+ \\(session \\w+\\): from ${before}, HEAD's last commit then, to the working tree\\.$`),
    );
    expect(text).toMatch(/Commits since \(1\):\n {2}[0-9a-f]+ Bump v\n/);
    // The note's own folder ignores itself (.claude-ide-bridge/.gitignore): only the new file is named.
    expect(text).toContain("Untracked files (1; not in the diff): new.txt\n");
    expect(text).toContain("-export const v = 1;\n+export const v = 2;");
    expect(text).toContain("+three");
    expect(text).not.toContain("+two");
    const stat = await d.text("getDiffFromHandoff", { stat: true });
    expect(stat).toMatch(/1\t0\tnotes\.txt/);
    expect(stat).toMatch(/1\t1\tsrc\/core\.ts/);
  });
});
