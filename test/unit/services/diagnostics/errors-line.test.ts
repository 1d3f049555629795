// The Errors line of an edit (src/services/diagnostics/errors-line.ts) says when the call's time
// limit, not the server, is why files have no answer, and what to do about it.
import { describe, expect, it } from "vitest";
import { errorsLine } from "../../../../src/services/diagnostics/errors-line.ts";

const tally = { introduced: [], fixed: [], checkedFiles: 3, late: ["b.ts", "c.ts"], notChecked: 0, verified: true };

describe("the Errors line", () => {
  it("names the late files, and the call's limit when it cut the server's part of the check", () => {
    expect(errorsLine(tally, "tsgo")).toBe(
      "Errors: 0 introduced, 0 fixed (3 files checked by tsgo, on the files as written, after the server caught up; no answer in time for b.ts, c.ts: their errors are unknown).",
    );
    expect(errorsLine({ ...tally, cut: true }, "tsgo")).toBe(
      "Errors: 0 introduced, 0 fixed (3 files checked by tsgo, on the files as written, after the server caught up; no answer in time for b.ts, c.ts: their errors are unknown (the call's time limit came first: raise --timeout for projects this large)).",
    );
  });

  it("names the files it could not predict, and says unknown when no other file answered", () => {
    const blind = { files: ["a.c", "b.c"], why: "they include lib.h, which clangd reads from disk" };
    const predicted = { ...tally, late: [], verified: false, blind };
    expect(errorsLine(predicted, "clangd")).toBe(
      "Errors: 0 introduced, 0 fixed (3 files checked by clangd, predicted on the unsaved new content; not predicted for a.c, b.c: they include lib.h, which clangd reads from disk).",
    );
    expect(errorsLine({ ...predicted, checkedFiles: 2 }, "clangd")).toMatch(/^Errors: unknown \(/);
  });
});
