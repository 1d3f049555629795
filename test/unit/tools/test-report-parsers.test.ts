// The runners' report parsers on sample reports, for the runners this machine may not have
// (jest, mocha, go) and for the shapes a real run rarely shows (a file that fails to load, nested
// subtests, console output mixed into the JSON, build failures).
import { describe, expect, it } from "vitest";
import { parseCargoTestText } from "../../../src/tools/commands/test-runners/cargo-test-text.ts";
import { parseGoTestJson } from "../../../src/tools/commands/test-runners/go-test-json.ts";
import { parseJestJson } from "../../../src/tools/commands/test-runners/jest-json.ts";
import { parseJunitXml } from "../../../src/tools/commands/test-runners/junit-xml.ts";
import { parseMochaJson } from "../../../src/tools/commands/test-runners/mocha-json.ts";
import { parseNodeTap } from "../../../src/tools/commands/test-runners/node-tap.ts";

describe("test report parsers", () => {
  it("jest --json, with console output before it and a file that failed to load", () => {
    const report = {
      numTotalTests: 3,
      testResults: [
        {
          name: "/ws/src/a.test.js",
          status: "failed",
          assertionResults: [
            { fullName: "a works", status: "passed" },
            {
              fullName: "a breaks",
              status: "failed",
              location: { line: 9, column: 3 },
              failureMessages: [
                "Error: expect(received).toBe(expected)\n\nExpected: 2\nReceived: 3\n    at Object.<anonymous> (/ws/src/a.test.js:11:17)",
              ],
            },
            { fullName: "a later", status: "pending" },
          ],
        },
        { name: "/ws/src/b.test.js", status: "failed", message: "SyntaxError: Unexpected token (3:4)", assertionResults: [] },
      ],
    };
    const parsed = parseJestJson(`{ not json\nconsole.log output\n${JSON.stringify(report)}\n`, "/ws");
    expect(parsed).toMatchObject({ passed: 1, failed: 2, skipped: 1 });
    expect(parsed.failures[0]).toMatchObject({ test: "a breaks", file: "src/a.test.js", line: 11 });
    expect(parsed.failures[1]).toMatchObject({ file: "src/b.test.js", message: expect.stringMatching(/SyntaxError/) });
    expect(parseJestJson("Error: no tests\n", "/ws").unreadable).toBe(true);
  });

  it("mocha --reporter=json", () => {
    const report = {
      stats: { passes: 4, failures: 1, pending: 2 },
      failures: [
        {
          fullTitle: "suite fails",
          file: "/ws/test/x.spec.js",
          err: {
            message: "expected 1 to equal 2",
            stack: "AssertionError: expected 1 to equal 2\n    at Context.<anonymous> (test/x.spec.js:5:12)",
          },
        },
      ],
    };
    const parsed = parseMochaJson(JSON.stringify(report, null, 2), "/ws");
    expect(parsed).toEqual({
      passed: 4,
      failed: 1,
      skipped: 2,
      failures: [{ test: "suite fails", file: "test/x.spec.js", line: 5, message: "expected 1 to equal 2" }],
    });
  });

  it("node --test TAP with nested subtests: only the failing leaf is a failure", () => {
    const tap = [
      "TAP version 13",
      "# Subtest: outer",
      "    # Subtest: inner fails",
      "    not ok 1 - inner fails",
      "      ---",
      "      duration_ms: 0.5",
      "      location: '/ws/t.test.js:3:5'",
      "      failureType: 'testCodeFailure'",
      "      error: |-",
      "        Expected values to be strictly equal:",
      "        ",
      "        1 !== 2",
      "      ...",
      "    1..1",
      "not ok 1 - outer",
      "  ---",
      "  location: '/ws/t.test.js:2:1'",
      "  failureType: 'subtestsFailed'",
      "  error: '1 subtest failed'",
      "  ...",
      "ok 2 - fine # SKIP",
      "# tests 2",
      "# pass 0",
      "# fail 1",
      "# skipped 1",
    ].join("\n");
    const parsed = parseNodeTap(tap, "/ws");
    expect(parsed).toMatchObject({ passed: 0, failed: 1, skipped: 1 });
    expect(parsed.failures).toEqual([{ test: "inner fails", file: "t.test.js", line: 3, message: expect.stringMatching(/1 !== 2/) }]);
  });

  it("JUnit XML with failures, errors, skips and entities", () => {
    const xml = `<?xml version="1.0"?><testsuites><testsuite name="pytest" errors="1" failures="1" skipped="1" tests="4">
<testcase classname="tests.test_a" name="test_ok" file="tests/test_a.py" line="2" time="0.001" />
<testcase classname="tests.test_a" name="test_bad" file="tests/test_a.py" line="5"><failure message="assert 1 == 2 &amp; &lt;more&gt;">long text</failure></testcase>
<testcase classname="tests.test_a" name="test_err" file="tests/test_a.py" line="8"><error message="fixture &apos;db&apos; not found"/></testcase>
<testcase classname="tests.test_a" name="test_skip"><skipped message="later"/></testcase>
</testsuite></testsuites>`;
    const parsed = parseJunitXml(xml);
    expect(parsed).toMatchObject({ passed: 1, failed: 2, skipped: 1 });
    expect(parsed.failures).toEqual([
      { test: "tests.test_a::test_bad", file: "tests/test_a.py", line: 6, message: "assert 1 == 2 & <more>" },
      { test: "tests.test_a::test_err", file: "tests/test_a.py", line: 9, message: "fixture 'db' not found" },
    ]);
    expect(parseJunitXml(undefined).unreadable).toBe(true);
  });

  it("go test -json, counting leaf tests and reading t.Errorf locations", async () => {
    const events = [
      { Action: "run", Package: "example.com/m/calc", Test: "TestAdd" },
      { Action: "output", Package: "example.com/m/calc", Test: "TestAdd", Output: "=== RUN   TestAdd\n" },
      { Action: "pass", Package: "example.com/m/calc", Test: "TestAdd", Elapsed: 0 },
      { Action: "run", Package: "example.com/m/calc", Test: "TestTable" },
      { Action: "run", Package: "example.com/m/calc", Test: "TestTable/neg" },
      { Action: "output", Package: "example.com/m/calc", Test: "TestTable/neg", Output: "    calc_test.go:21: got -1, want 1\n" },
      { Action: "fail", Package: "example.com/m/calc", Test: "TestTable/neg", Elapsed: 0 },
      { Action: "fail", Package: "example.com/m/calc", Test: "TestTable", Elapsed: 0 },
      { Action: "skip", Package: "example.com/m/calc", Test: "TestLater", Elapsed: 0 },
      { Action: "fail", Package: "example.com/m/calc", Elapsed: 0.01 },
    ];
    const parsed = await parseGoTestJson(events.map((e) => JSON.stringify(e)).join("\n"));
    expect(parsed).toMatchObject({ passed: 1, failed: 1, skipped: 1 });
    expect(parsed.failures).toEqual([
      { test: "example.com/m/calc.TestTable/neg", file: "calc/calc_test.go", line: 21, message: "calc_test.go:21: got -1, want 1" },
    ]);
    expect((await parseGoTestJson("# example.com/m\n./x.go:3:1: syntax error\nFAIL\n")).unreadable).toBe(true);
  });

  it("cargo test's text, old and new panic formats", () => {
    const out = [
      "running 3 tests",
      "test tests::a ... ok",
      "test tests::b ... FAILED",
      "test tests::c ... ignored",
      "",
      "failures:",
      "",
      "---- tests::b stdout ----",
      "thread 'tests::b' panicked at 'assertion failed: false', src/main.rs:12:9",
      "note: run with `RUST_BACKTRACE=1`",
      "",
      "failures:",
      "    tests::b",
      "",
      "test result: FAILED. 1 passed; 1 failed; 1 ignored; 0 measured; 0 filtered out",
    ].join("\n");
    expect(parseCargoTestText(out)).toMatchObject({
      passed: 1,
      failed: 1,
      skipped: 1,
      failures: [{ test: "tests::b", file: "src/main.rs", line: 12 }],
    });
    expect(parseCargoTestText("error[E0425]: cannot find value `x`\n").unreadable).toBe(true);
  });
});
