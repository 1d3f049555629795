// The extension's check of an adapter's "verified" (src/extension/breakpoint-truth.ts) against the
// adapter's own breakpoint locations, with sessions that answer as js-debug's do: the launcher an
// empty list for every file, the program's session the real places. The real js-debug answers in
// test/e2e/vscode-ide.test.ts.
import { expect, it } from "vitest";
import { functionsNotSupported, trueVerdicts, type TrackedSession } from "../../../src/extension/breakpoint-truth.ts";

const FILE = "/ws/app.js";

function member(answer: (args: { line: number; endLine: number }) => unknown, functions = false): TrackedSession {
  const session = {
    type: "pwa-node",
    customRequest: async (command: string, args: unknown) => {
      if (command !== "breakpointLocations") throw new Error(`unexpected ${command}`);
      return answer(args as { line: number; endLine: number });
    },
  };
  return { session, state: { kind: "running" }, supportsFunctionBreakpoints: functions };
}

const family = { type: "pwa-node" };
/** js-debug's program session: stopping places on lines 2, 3, 5 and 6, within the range asked. */
const program = member(({ line, endLine }) => ({
  breakpoints: [2, 3, 5, 6].filter((l) => l >= line && l < endLine).map((l) => ({ line: l, column: 1 })),
}));
const launcher = member(() => ({ breakpoints: [] }));

it("keeps a line with code, moves a line without to the next one with code, and unverifies one with none after it", async () => {
  const verdicts = await trueVerdicts(
    [launcher, program],
    [
      { filePath: FILE, line: 3, verified: true, id: 1 },
      { filePath: FILE, line: 4, verified: true, id: 2 },
      { filePath: FILE, line: 9, verified: true, id: 3 },
      { filePath: FILE, line: 7, verified: false, message: "Unbound breakpoint" },
      { filePath: FILE, line: 1, verified: true, boundLine: 2 },
      { function: "main", verified: true },
    ],
    family,
  );
  expect(verdicts).toEqual([
    { filePath: FILE, line: 3, verified: true, id: 1 },
    {
      filePath: FILE,
      line: 4,
      verified: true,
      id: 2,
      boundLine: 5,
      message: "line 4 has no code; the debugger moved the breakpoint to line 5",
    },
    {
      filePath: FILE,
      line: 9,
      verified: false,
      id: 3,
      message: "line 9 has no code, and no line after it has code; pwa-node reported it set, but it stops at no line of this file there",
    },
    { filePath: FILE, line: 7, verified: false, message: "Unbound breakpoint" },
    { filePath: FILE, line: 1, verified: true, boundLine: 2 },
    { function: "main", verified: true },
  ]);
});

it("leaves the adapter's verdict when no session could name a stopping place (empty answers, failures)", async () => {
  const failing = member(() => {
    throw new Error("not supported");
  });
  const asked = [{ filePath: FILE, line: 4, verified: true }];
  expect(await trueVerdicts([launcher, failing], asked, family)).toEqual(asked);
});

it("says a function breakpoint is not supported only when no live session's adapter takes them", () => {
  expect(functionsNotSupported([launcher, program], ["add"], family)).toEqual([
    {
      function: "add",
      verified: false,
      message: "the pwa-node debugger does not support function breakpoints: set a line breakpoint in the function instead",
    },
  ]);
  expect(functionsNotSupported([member(() => ({}), true)], ["add"], family)).toEqual([]);
  expect(functionsNotSupported([], ["add"], family)).toEqual([]);
});
