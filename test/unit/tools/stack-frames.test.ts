// runTests' failures keep the project's own stack frames, count the ones left out, and name the
// workspace's files relative to it.
import { describe, expect, it } from "vitest";
import { shortMessage } from "../../../src/tools/commands/test-runners/test-run.ts";
import { ownFrames, relativeFrames } from "../../../src/tools/commands/test-runners/stack-frames.ts";

const VITEST = [
  "AssertionError: expected 3 to be 4 // Object.is equality",
  "    at /ws/src/math.test.ts:7:21",
  "    at helper (/ws/src/helpers.ts:3:9)",
  "    at file:///ws/node_modules/@vitest/runner/dist/chunk-hooks.js:155:11",
  "    at file:///ws/node_modules/@vitest/runner/dist/chunk-hooks.js:752:26",
  "    at file:///ws/node_modules/@vitest/runner/dist/chunk-hooks.js:1897:20",
  "    at new Promise (<anonymous>)",
  "    at runWithTimeout (file:///ws/node_modules/@vitest/runner/dist/chunk-hooks.js:1863:10)",
  "    at runTest (file:///ws/node_modules/@vitest/runner/dist/chunk-hooks.js:1574:12)",
  "    at processTicksAndRejections (node:internal/process/task_queues:105:5)",
  "    at runSuite (file:///ws/node_modules/@vitest/runner/dist/chunk-hooks.js:1729:8)",
  "    at runFiles (file:///ws/node_modules/@vitest/runner/dist/chunk-hooks.js:1787:3)",
].join("\n");

describe("ownFrames", () => {
  it("keeps the message and the project's frames, and counts the rest", () => {
    expect(ownFrames(VITEST)).toBe(
      [
        "AssertionError: expected 3 to be 4 // Object.is equality",
        "    at /ws/src/math.test.ts:7:21",
        "    at helper (/ws/src/helpers.ts:3:9)",
        "    (9 frames of dependencies and runtime internals left out)",
      ].join("\n"),
    );
    // The runner's short message then has room for what matters, and the paths are relative.
    expect(relativeFrames(shortMessage(VITEST), "/ws")).toBe(
      "AssertionError: expected 3 to be 4 // Object.is equality\n    at src/math.test.ts:7:21\n    at helper (src/helpers.ts:3:9)\n    (9 frames of dependencies and runtime internals left out)",
    );
  });

  it("drops Python frames of site-packages with their source line, and leaves a trace without such frames alone", () => {
    const py = [
      "Traceback (most recent call last):",
      '  File "/ws/tests/test_a.py", line 5, in test_bad',
      "    helper()",
      '  File "/usr/lib/python3/site-packages/pluggy/_hooks.py", line 513, in __call__',
      "    return self._hookexec(self.name, self._hookimpls, kwargs, firstresult)",
      "AssertionError: assert 1 == 2",
    ].join("\n");
    expect(ownFrames(py)).toBe(
      [
        "Traceback (most recent call last):",
        '  File "/ws/tests/test_a.py", line 5, in test_bad',
        "    helper()",
        "AssertionError: assert 1 == 2",
        "  (1 frame of dependencies and runtime internals left out)",
      ].join("\n"),
    );
    const own = "Error: boom\n    at f (/ws/a.js:1:1)";
    expect(ownFrames(own)).toBe(own);
  });

  it("makes file URLs and absolute paths of the workspace relative, nothing else", () => {
    expect(relativeFrames("at file:///ws/a.ts:1:2 and /ws/b.ts:3 but /wsx/c.ts", "/ws")).toBe("at a.ts:1:2 and b.ts:3 but /wsx/c.ts");
  });
});
