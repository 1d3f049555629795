// The Errors line of an editing LSP tool's answer: counts only where something checked them. When no
// file the server was asked about answered in time and no checker ran, "0 introduced" would be a
// claim nothing verified: it says unknown, and which files gave no answer.
import { describe, expect, it } from "vitest";
import type { EditOutcome } from "../../../src/lsp/apply-edit.ts";
import type { WorkspacePath } from "../../../src/security/jail/workspace-path.ts";
import { renderOutcome } from "../../../src/tools/lsp/edit-outcome.ts";

const WORDS = { done: "Applied it", would: "Would apply it", server: "the server" };

function outcome(late: string[]): EditOutcome {
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
});
