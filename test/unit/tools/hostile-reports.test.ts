// Runners' reports, test output and .http files are text anything in the workspace can write, and
// they are read on the event loop: a hostile one must cost about what an ordinary one of the same
// size costs, never the quadratic time of a backtracking pattern (an element that never closes, a
// long token without a ":", a run of spaces before a missing "#"). CPU times are compared in the
// same run, never to a fixed number of milliseconds; the sizes make a quadratic reader thousands of
// times slower than a linear one, so the bound of 40x leaves room for a busy machine.
import { describe, expect, it } from "vitest";
import { parseHttpFile } from "../../../src/tools/commands/http-file.ts";
import { parseCobertura } from "../../../src/tools/commands/coverage/coverage-reports.ts";
import { parseGoTestJson } from "../../../src/tools/commands/test-runners/go-test-json.ts";
import { parseJestJson } from "../../../src/tools/commands/test-runners/jest-json.ts";
import { parseJunitXml } from "../../../src/tools/commands/test-runners/junit-xml.ts";
import { parseNodeTap } from "../../../src/tools/commands/test-runners/node-tap.ts";
import { extractJsonObject, lineInStack } from "../../../src/tools/commands/test-runners/test-run.ts";

const N = 40_000;

/**
 * The median of 5 runs, in ms of this process's CPU time: the readers give the event loop turns,
 * and the time spent waiting for one (long on a loaded machine) is not the reader's work.
 */
async function timeOf(fn: () => unknown): Promise<number> {
  const runs: number[] = [];
  for (let i = 0; i < 5; i++) {
    const start = process.cpuUsage();
    await fn();
    const used = process.cpuUsage(start);
    runs.push((used.user + used.system) / 1000);
  }
  return runs.sort((a, b) => a - b)[2] ?? 0;
}

/** [what, ordinary input, hostile input of about the same size, reader] */
const CASES: [string, string, string, (text: string) => unknown][] = [
  [
    "stack frame search, a long token with no location",
    `at x (/ws/a.test.ts:1:2)\n`.repeat(N / 25),
    "a:1".repeat(N / 3),
    (t) => lineInStack(t, "b.test.ts"),
  ],
  [
    "JSON report among lines that open objects",
    `${"log line\n".repeat(N / 9)}{"testResults":[]}`,
    '{"a":[\n'.repeat(N / 7),
    (t) => extractJsonObject(t),
  ],
  [
    "jest report among logged objects",
    `${'{"log":1}\n'.repeat(N / 10)}{"testResults":[]}`,
    '{"x":1\n'.repeat(N / 7),
    (t) => parseJestJson(t, "/ws"),
  ],
  [
    "JUnit testcases never closed",
    `<testsuite>${'<testcase name="t"></testcase>'.repeat(N / 30)}</testsuite>`,
    `<testsuite>${"<testcase a>".repeat(N / 12)}`,
    (t) => parseJunitXml(t),
  ],
  [
    "JUnit failures never closed",
    `<testsuite><testcase>${'<failure message="m"/>'.repeat(N / 22)}</testcase>`,
    `<testsuite><testcase>${"<failure x>".repeat(N / 11)}</testcase>`,
    (t) => parseJunitXml(t),
  ],
  [
    "Cobertura classes never closed",
    `${'<class filename="a.py"><line number="1" hits="1"/></class>'.repeat(N / 56)}`,
    '<class filename="a">'.repeat(N / 20),
    (t) => parseCobertura(t, "/ws"),
  ],
  [".http references never closed", `GET http://x/{{a}}\n`.repeat(N / 19), `GET http://x/${"{{".repeat(N / 2)}`, (t) => parseHttpFile(t)],
  [".http variables before any request", `@a=1\nGET http://x/\n`.repeat(N / 19), "@a=1\n".repeat(N / 5), (t) => parseHttpFile(t)],
  [
    "TAP result names ending in spaces",
    "not ok 1 - name # SKIP\n".repeat(N / 23),
    `not ok 1 - a${" ".repeat(N)}x`,
    (t) => parseNodeTap(t, "/ws"),
  ],
  [
    "TAP YAML blocks never closed",
    "not ok 1 - x\n  ---\n  a: b\n  ...\n".repeat(N / 32),
    "not ok 1 - x\n  ---\n  a: b\n  a: b\n".repeat(N / 36),
    (t) => parseNodeTap(t, "/ws"),
  ],
];

describe("hostile reports cost what ordinary ones do", () => {
  for (const [what, ordinary, hostile, read] of CASES) {
    it(what, async () => {
      expect(hostile.length).toBeGreaterThan(N / 2);
      await read(ordinary);
      await read(hostile);
      const base = await timeOf(() => read(ordinary));
      expect(await timeOf(() => read(hostile)), `${what}: ordinary ${base.toFixed(2)} ms`).toBeLessThan(Math.max(base, 0.5) * 40);
    });
  }

  // 20 s at load average 28 on two cores (1 s quiet): a longer limit than the unit default.
  it("go test -json: many tests and long outputs, read in linear time", { timeout: 60_000 }, async () => {
    const tests = (n: number) =>
      Array.from({ length: n }, (_, i) => JSON.stringify({ Action: "pass", Package: "p", Test: `T${i}/sub` })).join("\n");
    const outputs = (n: number) =>
      [
        ...Array.from({ length: n }, () => JSON.stringify({ Action: "output", Package: "p", Test: "T", Output: "x\n" })),
        JSON.stringify({ Action: "fail", Package: "p", Test: "T" }),
      ].join("\n");
    // Eight times the input may cost eight times the time; the quadratic reader took 64 times.
    for (const [small, large] of [
      [tests(2000), tests(16_000)],
      [outputs(5000), outputs(40_000)],
    ] as const) {
      await parseGoTestJson(small);
      await parseGoTestJson(large);
      expect(await timeOf(() => parseGoTestJson(large))).toBeLessThan(Math.max(await timeOf(() => parseGoTestJson(small)), 0.5) * 40);
    }
  });
});

describe("what the linear readers still read", () => {
  it("JUnit, Cobertura, TAP and .http shapes as before", async () => {
    const junit = parseJunitXml(
      '<testsuite><testcase classname="a" name="t" file="a.py" line="3"><failure message="boom &amp; bust"/></testcase><testcase name="s"><skipped/></testcase><testcase name="ok"/></testsuite>',
    );
    expect(junit).toEqual({
      passed: 1,
      failed: 1,
      skipped: 1,
      failures: [{ test: "a::t", message: "boom & bust", file: "a.py", line: 4 }],
    });
    expect(
      parseJunitXml('<testsuite><testcase name="t"><error>trace &#9999999; &#x41;</error></testcase></testsuite>').failures[0]?.message,
    ).toBe("trace \uFFFD A");
    const cov = await parseCobertura(
      '<coverage><sources><source>/ws</source></sources><class name="m" filename="m.py"><lines><line number="1" hits="2"/><line hits="0" number="2"/></lines></class></coverage>',
      "/ws",
    );
    expect(cov).toMatchObject([{ file: "m.py", covered: 1, total: 2, uncovered: [2] }]);
    const tap = parseNodeTap(
      "not ok 1 - adds # TODO later\n  ---\n  location: '/ws/a.test.js:3:1'\n  error: 'bad'\n  ...\n# pass 0\n# fail 1\n",
      "/ws",
    );
    expect(tap.failures).toEqual([{ test: "adds", message: "bad", file: "a.test.js", line: 3 }]);
    const http = parseHttpFile("@host = example.com\n@base = https://{{host}}\nGET {{base}}/x?q={{missing}}\n");
    expect(http.requests[0]).toMatchObject({ url: "https://example.com/x?q={{missing}}", unresolved: ["missing"] });
    expect(lineInStack("Error: x\n    at Object.<anonymous> (file:///ws/src/a.test.ts:12:5)", "src/a.test.ts")).toBe(12);
    expect(extractJsonObject('{"log":1}\nnoise\n{\n  "testResults": []\n}\n')).toEqual({ testResults: [] });
  });
});
