// The Errors line of an editing LSP tool's answer: counts only where something checked them. When no
// file the server was asked about answered in time and no checker ran, "0 introduced" would be a
// claim nothing verified: it says unknown, and which files gave no answer.
import { describe, expect, it } from "vitest";
import type { EditOutcome } from "../../../src/lsp/apply-edit.ts";
import type { WorkspacePath } from "../../../src/security/jail/workspace-path.ts";
import { renderOutcome } from "../../../src/tools/lsp/edit-outcome.ts";

const WORDS = { done: "Applied it", would: "Would apply it", server: "the server" };

function outcome(late: string[], more: Partial<EditOutcome> = {}): EditOutcome {
  const after = "export const b = 1;\n";
  return {
    files: [
      {
        path: "/ws/a.ts" as WorkspacePath,
        relative: "a.ts",
        before: "export const a = 1;\n",
        after,
        data: new TextEncoder().encode(after),
      },
    ],
    introduced: [],
    fixed: [],
    checkedFiles: 1,
    notChecked: 0,
    late,
    verified: true,
    written: true,
    digest: "0123abcd",
    ...more,
  };
}

describe("the Errors line", () => {
  it("counts when the file answered, and says unknown when none did", async () => {
    expect((await renderOutcome(outcome([]), WORDS)).split("\n")[1]).toMatch(
      /^Errors: 0 introduced, 0 fixed \(1 file checked by the server/,
    );
    const unknown = (await renderOutcome(outcome(["a.ts"]), WORDS)).split("\n")[1];
    expect(unknown).toMatch(
      /^Errors: unknown \(1 file checked by the server, .*no answer in time for a\.ts: their errors are unknown\)\.$/,
    );
  });

  it("names the checker and what it found, and the files past the server's bound it covered", async () => {
    const checked = outcome([], {
      notChecked: 0,
      checks: [{ checker: "tsgo (CLI)", scope: "2 tsconfig projects (a.json, b.json)", introduced: 2, coveredUnchecked: 3 }],
    });
    expect((await renderOutcome(checked, WORDS)).split("\n")[1]).toBe(
      "Errors: 0 introduced, 0 fixed (1 file checked by the server, on the files as written, after the server caught up; and by tsgo (CLI) over 2 tsconfig projects (a.json, b.json): 2 introduced, covering the 3 file(s) the server did not check).",
    );
  });

  it("counts by the checker alone when the server was not asked, and says not checked when the checker failed", async () => {
    const alone = outcome([], {
      checkedFiles: 0,
      checks: [{ checker: "tsgo (CLI)", scope: "1 tsconfig project (tsconfig.json)", introduced: 0 }],
    });
    expect((await renderOutcome(alone, WORDS)).split("\n")[1]).toBe(
      "Errors: 0 introduced, 0 fixed (on the files as written, counted by the language's checker; the server not asked; by tsgo (CLI) over 1 tsconfig project (tsconfig.json): 0 introduced).",
    );
    const failed = outcome([], {
      checkedFiles: 0,
      notChecked: 4,
      checks: [{ checker: "tsgo (CLI)", scope: "its tsconfig projects", introduced: 0, failed: "it exited 2: bad config" }],
    });
    expect((await renderOutcome(failed, WORDS)).split("\n")[1]).toBe(
      "Errors: unknown (0 files checked by the server, on the files as written, after the server caught up; 4 more file(s) that use it were not checked; tsgo (CLI) could not check its tsconfig projects (it exited 2: bad config), so errors only it finds are unknown).",
    );
    const named = outcome([], {
      checkedFiles: 48,
      notChecked: 7,
      notCheckedFiles: ["a.ts", "b.ts", "c.ts", "d.ts", "e.ts", "f.ts", "g.ts"],
    });
    expect((await renderOutcome(named, WORDS)).split("\n")[1]).toBe(
      "Errors: 0 introduced, 0 fixed (48 files checked by the server, on the files as written, after the server caught up; 7 more file(s) that use it were not checked (a.ts, b.ts, c.ts, d.ts, e.ts and 2 more)).",
    );
  });
});
