// runCommand's answer when a command times out: what ran, how long, where its output is, and the
// ways on, which depend on whether there was room for a longer timeout and on what the command is.
import { describe, expect, it } from "vitest";
import { timeoutAdvice } from "../../../src/tools/commands/command-timeout.ts";

const base = { maxMs: 600_000, durationMs: 30_012, output: true };

describe("timeoutAdvice", () => {
  it("names the command, the time it ran and the timeout, and offers a longer one up to the most", () => {
    const text = timeoutAdvice("npm run build", { ...base, timeoutMs: 30_000 });
    expect(text).toMatch(/^\[timed out: `npm run build` ran 30\.0 s and was stopped at its 30000 ms timeout/);
    expect(text).toContain("the output above is what it printed until then");
    expect(text).toContain("call again with timeoutMs up to 600000 (10 min, the most a call may take)");
    expect(text).toContain("Narrow it: run it on one folder, file or target");
    expect(text.endsWith("]")).toBe(true);
  });

  it("at the most already, says so instead of offering more; says when there was no output", () => {
    const text = timeoutAdvice("cargo build", { ...base, timeoutMs: 600_000, output: false });
    expect(text).not.toContain("call again with timeoutMs");
    expect(text).toContain("It had the most a call may take (10 min)");
    expect(text).toContain("it printed nothing until then");
  });

  it("points a test command to runTests with one file or one test name", () => {
    for (const shown of [
      "npm test",
      "npm run test:unit",
      "npx vitest run",
      "jest",
      "pytest -x",
      "go test ./...",
      "cargo test",
      "yarn test",
    ]) {
      expect(timeoutAdvice(shown, { ...base, timeoutMs: 30_000 }), shown).toContain("runTests with file (one test file) or filter");
    }
    expect(timeoutAdvice("npm run build", { ...base, timeoutMs: 30_000 })).not.toContain("runTests");
  });
});
