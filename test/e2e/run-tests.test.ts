// runTests on real runners in workspaces the tests build: tiny vitest, jest and mocha projects on
// this repo's own packages (node_modules symlinked in), node --test, a tiny pytest project when
// pytest is installed, and a tiny cargo crate when cargo is there (skipped with the reason
// otherwise). Results are parsed from the runners' machine-readable reports, which they write to a
// private file rather than stdout; the last result is cached for 30 s and each run publishes a
// test.run event.
import { symlink, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BridgeEvents } from "../../src/capabilities/events/bridge-events.ts";
import { tempWorkspaces, type TempWorkspaces } from "../helpers/temp-workspace.ts";
import { missingProgram } from "../helpers/missing-program.ts";
import { dispatcher } from "../helpers/tool-dispatch.ts";

interface TestRun {
  runner: string;
  outcome: string;
  passed: number;
  failed: number;
  skipped: number;
  failures: { test: string; file?: string; line?: number; message: string }[];
  cachedAgoMs?: number;
  command: string;
  output?: string;
}

const REPO = resolve(import.meta.dirname, "../..");
let temp: TempWorkspaces;

beforeAll(async () => {
  temp = await tempWorkspaces("cib-runtests-");
});
afterAll(async () => {
  await temp.remove();
});

const workspace = (name: string, files: Record<string, string>) => temp.make(name, files);

/**
 * One file (and one test name) of a runner's project: only that file's matching test runs, in the
 * runner's own syntax; the other file, which fails, runs alone when named.
 */
async function byFile(
  d: Awaited<ReturnType<typeof dispatcher>>,
  opts: { one: { file: string; filter: string }; command: string; other: string },
): Promise<void> {
  const one = await d.data<TestRun>("runTests", opts.one);
  expect(one).toMatchObject({ outcome: "pass", passed: 1, failed: 0, command: opts.command });
  const other = await d.data<TestRun>("runTests", { file: opts.other });
  expect(other).toMatchObject({ outcome: "fail", passed: 0, failed: 1 });
}

const MATH_TEST = `import { describe, expect, it } from "vitest";
describe("math", () => {
  it("adds", () => {
    expect(1 + 1).toBe(2);
  });
  it("multiplies", () => {
    expect(2 * 3).toBe(7);
  });
  it.skip("divides", () => {});
});
`;

describe("runTests with vitest", () => {
  it("detects vitest, parses failures with file and line, caches 30 s, and publishes pass-after-fail", { timeout: 120_000 }, async () => {
    const root = await workspace("vitest-project", {
      "package.json": JSON.stringify({ name: "t", type: "module", scripts: { test: "vitest" }, devDependencies: { vitest: "*" } }),
      "math.test.ts": MATH_TEST,
    });
    await symlink(join(REPO, "node_modules"), join(root, "node_modules"));
    const d = await dispatcher(root);
    const events: BridgeEvents["test.run"][] = [];
    d.fixture.events.subscribe("test.run", (e) => events.push(e));

    const first = await d.data<TestRun>("runTests", {});
    expect(first).toMatchObject({ runner: "vitest", outcome: "fail", passed: 1, failed: 1, skipped: 1 });
    expect(first.failures).toEqual([
      { test: "math multiplies", file: "math.test.ts", line: 7, message: expect.stringMatching(/expected 6 to be 7/) },
    ]);
    expect(first.command).toMatch(/^vitest run --reporter=json/);

    const cached = await d.data<TestRun>("runTests", {});
    expect(cached.cachedAgoMs).toBeGreaterThanOrEqual(0);
    expect(events).toHaveLength(1);

    await writeFile(join(root, "math.test.ts"), MATH_TEST.replace("toBe(7)", "toBe(6)"));
    const fixed = await d.data<TestRun>("runTests", { rerun: true });
    expect(fixed).toMatchObject({ outcome: "pass", passed: 2, failed: 0, skipped: 1, failures: [] });
    expect(fixed.cachedAgoMs).toBeUndefined();
    expect(events.map((e) => e.outcome)).toEqual(["fail", "pass-after-fail"]);

    const filtered = await d.data<TestRun>("runTests", { filter: "adds" });
    expect(filtered).toMatchObject({ outcome: "pass", passed: 1 });
    expect(events.map((e) => e.outcome)).toEqual(["fail", "pass-after-fail", "pass"]);
    expect((await d.failure("runTests", { filter: "--config=/tmp/x" })).code).toBe("invalid_arguments");
    // A file whose name looks like an option reaches vitest as a path ("./--config=x.test.ts").
    await writeFile(join(root, "--config=x.test.ts"), 'import { it } from "vitest";\nit("odd name", () => {});\n');
    const odd = await d.data<TestRun>("runTests", { file: "--config=x.test.ts" });
    expect(odd).toMatchObject({ outcome: "pass", passed: 1, failed: 0 });
    expect(odd.command).toMatch(/ \.\/--config=x\.test\.ts$/);
    const one = await d.data<TestRun>("runTests", { file: "math.test.ts", rerun: true });
    expect(one).toMatchObject({ outcome: "pass", passed: 2, skipped: 1 });
  });
});

describe("runTests reads the report file, not stdout", () => {
  it("counts right when the tests print more than the 16 MB of output kept", { timeout: 120_000 }, async () => {
    const root = await workspace("vitest-chatty", {
      "package.json": JSON.stringify({ name: "c", type: "module", scripts: { test: "vitest run" } }),
      // 17 MB on stdout: kept output ends before the runner's summary would come.
      "chatty.test.ts":
        'import { expect, it } from "vitest";\nit("talks", () => {\n  for (let i = 0; i < 17; i++) process.stdout.write(`{"testResults": [${"0,".repeat(500_000)}\\n`);\n});\nit("fails", () => {\n  expect(1).toBe(2);\n});\n',
    });
    await symlink(join(REPO, "node_modules"), join(root, "node_modules"));
    const d = await dispatcher(root);
    const run = await d.data<TestRun>("runTests", {});
    expect(run).toMatchObject({ runner: "vitest", outcome: "fail", passed: 1, failed: 1, skipped: 0 });
    expect(run.failures[0]).toMatchObject({ test: "fails", file: "chatty.test.ts", line: 6 });
    // The command to reproduce the run names no private report file.
    expect(run.command).toBe("vitest run --reporter=json");
  });
});

describe("runTests with jest", () => {
  it("runs jest with its JSON report written to a file, with each failure's line", { timeout: 120_000 }, async () => {
    const root = await workspace("jest-project", {
      "package.json": JSON.stringify({ name: "j", scripts: { test: "jest" }, devDependencies: { jest: "*" } }),
      "sum.test.js":
        'const sum = (a, b) => a + b;\ntest("adds", () => {\n  console.log("{\\"testResults\\": \\"not this\\"}");\n  expect(sum(1, 2)).toBe(3);\n});\ntest("breaks", () => {\n  expect(sum(1, 2)).toBe(4);\n});\ntest.skip("later", () => {});\n',
    });
    await symlink(join(REPO, "node_modules"), join(root, "node_modules"));
    const d = await dispatcher(root);
    const run = await d.data<TestRun>("runTests", {});
    expect(run).toMatchObject({ runner: "jest", outcome: "fail", passed: 1, failed: 1, skipped: 1 });
    expect(run.failures).toEqual([{ test: "breaks", file: "sum.test.js", line: 7, message: expect.stringMatching(/Expected: 4/) }]);
    const filtered = await d.data<TestRun>("runTests", { filter: "adds" });
    expect(filtered).toMatchObject({ outcome: "pass", passed: 1, failed: 0 });
    await writeFile(join(root, "other.test.js"), 'test("elsewhere", () => {\n  expect(1).toBe(2);\n});\n');
    await byFile(d, {
      one: { file: "sum.test.js", filter: "adds" },
      command: "jest --json --ci --testLocationInResults --watchAll=false --testNamePattern=adds --runTestsByPath ./sum.test.js",
      other: "other.test.js",
    });
  });
});

describe("runTests with mocha", () => {
  it("runs mocha's json reporter into a file, with the failure's file and line", { timeout: 120_000 }, async () => {
    const root = await workspace("mocha-project", {
      "package.json": JSON.stringify({ name: "m", scripts: { test: "mocha" }, devDependencies: { mocha: "*" } }),
      "test/calc.spec.js":
        'const assert = require("node:assert");\ndescribe("calc", () => {\n  it("adds", () => {\n    console.log("{");\n    assert.strictEqual(1 + 1, 2);\n  });\n  it("breaks", () => {\n    assert.strictEqual(1 + 1, 3);\n  });\n  it.skip("later", () => {});\n});\n',
    });
    await symlink(join(REPO, "node_modules"), join(root, "node_modules"));
    const d = await dispatcher(root);
    const run = await d.data<TestRun>("runTests", {});
    expect(run).toMatchObject({ runner: "mocha", outcome: "fail", passed: 1, failed: 1, skipped: 1 });
    expect(run.failures).toEqual([{ test: "calc breaks", file: "test/calc.spec.js", line: 8, message: expect.stringMatching(/2 !== 3/) }]);
    expect(run.command).toBe("mocha --reporter=json");
    await writeFile(join(root, "test", "other.spec.js"), 'it("elsewhere", () => {\n  throw new Error("no");\n});\n');
    await byFile(d, {
      one: { file: "test/calc.spec.js", filter: "adds" },
      command: "mocha --reporter=json --grep=adds ./test/calc.spec.js",
      other: "test/other.spec.js",
    });
  });
});

describe("runTests with node --test", () => {
  it("runs the runner package.json declares, through a fixed argv, and reads its TAP", { timeout: 120_000 }, async () => {
    const root = await workspace("node-test-project", {
      "package.json": JSON.stringify({ name: "n", scripts: { test: "node --test" } }),
      "test/a.test.js": `const test = require("node:test");\nconst assert = require("node:assert");\ntest("ok one", () => {});\ntest("bad one", () => {\n  assert.strictEqual(1, 2);\n});\ntest("skipped one", { skip: true }, () => {});\n`,
    });
    const d = await dispatcher(root);
    const run = await d.data<TestRun>("runTests", {});
    expect(run).toMatchObject({ runner: "node --test", outcome: "fail", passed: 1, failed: 1, skipped: 1 });
    expect(run.failures[0]).toMatchObject({ test: "bad one", file: "test/a.test.js", line: 4 });
    await writeFile(join(root, "test", "b.test.js"), 'require("node:test")("elsewhere", () => {\n  throw new Error("no");\n});\n');
    await byFile(d, {
      one: { file: "test/a.test.js", filter: "ok one" },
      command: "node --test --test-reporter=tap --test-name-pattern=ok one ./test/a.test.js",
      other: "test/b.test.js",
    });
  });
});

const noPytest = missingProgram("pytest", ["--version"]);
describe.skipIf(noPytest !== undefined)(`runTests with pytest${noPytest === undefined ? "" : ` (skipped: ${noPytest})`}`, () => {
  it("reads pytest's JUnit XML report", { timeout: 180_000 }, async () => {
    const root = await workspace("pytest-project", {
      "pytest.ini": "[pytest]\n",
      "test_sample.py":
        "import pytest\n\ndef test_ok():\n    assert 1 == 1\n\ndef test_bad():\n    assert 1 == 2, 'one is not two'\n\n@pytest.mark.skip(reason='later')\ndef test_later():\n    pass\n",
    });
    const d = await dispatcher(root);
    const run = await d.data<TestRun>("runTests", {});
    expect(run).toMatchObject({ runner: "pytest", outcome: "fail", passed: 1, failed: 1, skipped: 1 });
    expect(run.failures[0]).toMatchObject({
      test: "test_sample::test_bad",
      file: "test_sample.py",
      line: 6,
      message: expect.stringMatching(/one is not two/),
    });
    const filtered = await d.data<TestRun>("runTests", { filter: "test_ok" });
    expect(filtered).toMatchObject({ outcome: "pass", passed: 1, failed: 0 });
    await writeFile(join(root, "test_other.py"), "def test_elsewhere():\n    assert False\n");
    await byFile(d, {
      one: { file: "test_sample.py", filter: "test_ok" },
      command: "pytest -q -p no:cacheprovider -o junit_family=xunit1 -k test_ok ./test_sample.py",
      other: "test_other.py",
    });
  });
});
if (noPytest !== undefined) console.log(`pytest tests skipped: ${noPytest}`);

const noCargo = missingProgram("cargo", ["--version"]);
describe.skipIf(noCargo !== undefined)(`runTests with cargo test${noCargo === undefined ? "" : ` (skipped: ${noCargo})`}`, () => {
  it("reads libtest's output, with the panic's file and line", { timeout: 180_000 }, async () => {
    const root = await workspace("cargo-project", {
      "Cargo.toml": '[package]\nname = "tiny"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n',
      "src/lib.rs":
        "pub fn add(a: i32, b: i32) -> i32 { a + b }\n\n#[cfg(test)]\nmod tests {\n    use super::*;\n    #[test]\n    fn adds() { assert_eq!(add(1, 1), 2); }\n    #[test]\n    fn breaks() { assert_eq!(add(1, 1), 3); }\n    #[test]\n    #[ignore]\n    fn later() {}\n}\n",
    });
    const d = await dispatcher(root);
    const run = await d.data<TestRun>("runTests", {});
    expect(run).toMatchObject({ runner: "cargo", outcome: "fail", passed: 1, failed: 1, skipped: 1 });
    expect(run.failures[0]).toMatchObject({ test: "tests::breaks", file: "src/lib.rs", line: 9 });
    // A file under src/ is the library's tests, in that file's module when no name is given.
    const one = await d.data<TestRun>("runTests", { file: "src/lib.rs", filter: "adds" });
    expect(one).toMatchObject({ outcome: "pass", passed: 1, failed: 0, command: "cargo test --no-fail-fast --lib adds" });
  });
});
if (noCargo !== undefined) console.log(`cargo tests skipped: ${noCargo}`);

const noGo = missingProgram("go", ["version"]);
describe.skipIf(noGo !== undefined)(`runTests with go test${noGo === undefined ? "" : ` (skipped: ${noGo})`}`, () => {
  it("runs one file's tests by their names (go runs packages), or the whole module", { timeout: 180_000 }, async () => {
    const root = await workspace("go-project", {
      "go.mod": "module example.com/calc\n\ngo 1.19\n",
      "calc/calc.go": "package calc\n\nfunc Add(a, b int) int {\n\treturn a + b\n}\n",
      "calc/add_test.go":
        'package calc\n\nimport "testing"\n\nfunc TestAdd(t *testing.T) {\n\tif Add(1, 2) != 3 {\n\t\tt.Fatal("bad")\n\t}\n}\n\nfunc TestAddZero(t *testing.T) {}\n',
      "calc/broken_test.go": 'package calc\n\nimport "testing"\n\nfunc TestBroken(t *testing.T) {\n\tt.Fatal("broken")\n}\n',
    });
    const d = await dispatcher(root);
    const all = await d.data<TestRun>("runTests", {});
    expect(all).toMatchObject({ runner: "go", outcome: "fail", passed: 2, failed: 1 });
    expect(all.failures[0]).toMatchObject({ test: "example.com/calc/calc.TestBroken" });
    const one = await d.data<TestRun>("runTests", { file: "calc/add_test.go" });
    expect(one).toMatchObject({ outcome: "pass", passed: 2, failed: 0, command: "go test -json -run=^(TestAdd|TestAddZero)$ ./calc" });
    const named = await d.data<TestRun>("runTests", { file: "calc/add_test.go", filter: "TestAddZero" });
    expect(named).toMatchObject({ outcome: "pass", passed: 1, failed: 0 });
  });
});
if (noGo !== undefined) console.log(`go tests skipped: ${noGo}`);

describe("runTests without a runner", () => {
  it("says none is declared and what to do", async () => {
    const root = await workspace("empty-project", { "README.md": "nothing here\n" });
    const d = await dispatcher(root);
    const failure = await d.failure("runTests", {});
    expect(failure.code).toBe("not_detected");
  });
});
