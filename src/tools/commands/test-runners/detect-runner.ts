// Which test runner the workspace declares, from its files alone: the runner its package.json
// test script calls first (that is what the project really uses), then runner dependencies and
// config files, then Python, Go and Rust markers.
//
// | runner       | declared by                                                                  |
// | vitest       | scripts.test calls vitest; "vitest" dependency; vitest.config.*             |
// | jest         | scripts.test calls jest; "jest" dependency; jest.config.*; "jest" key        |
// | mocha        | scripts.test calls mocha; "mocha" dependency; .mocharc.*                     |
// | node --test  | scripts.test calls `node --test`                                             |
// | pytest       | pytest.ini, conftest.py, [tool.pytest...] in pyproject.toml, [tool:pytest]   |
// |              | in setup.cfg, [pytest] in tox.ini, pytest in requirements*.txt/pyproject.toml |
// | go test      | go.mod                                                                       |
// | cargo test   | Cargo.toml                                                                   |
import { isRecord, readProjectFacts } from "../../../services/diagnostics/project-facts.ts";
import type { ToolContext } from "../../../capabilities/context.ts";
import type { RunnerName } from "./runners.ts";

interface DetectedRunner {
  runner: RunnerName;
  why: string;
}

const SCRIPT_RUNNERS: readonly [RegExp, RunnerName][] = [
  [/\bvitest\b/, "vitest"],
  [/\bjest\b/, "jest"],
  [/\bmocha\b/, "mocha"],
  [/\bnode\b[^&|;]*\s--test\b/, "node"],
];

export async function detectRunners(ctx: ToolContext): Promise<DetectedRunner[]> {
  const project = await readProjectFacts(ctx);
  const { names, read } = project;
  const pkg = project.packageJson;
  const found: DetectedRunner[] = [];
  const add = (runner: RunnerName, why: string) => {
    if (!found.some((f) => f.runner === runner)) found.push({ runner, why });
  };
  const script = isRecord(pkg?.scripts) && typeof pkg.scripts.test === "string" ? pkg.scripts.test : "";
  const byPosition = SCRIPT_RUNNERS.map(([re, runner]) => ({ runner, at: script.search(re) })).filter((s) => s.at !== -1);
  for (const { runner } of byPosition.sort((a, b) => a.at - b.at))
    add(runner, `package.json's test script runs ${runner === "node" ? "node --test" : runner}`);
  for (const runner of ["vitest", "jest", "mocha"] as const) {
    if (project.deps.has(runner)) add(runner, `package.json depends on ${runner}`);
    else if (project.hasFile(runner === "mocha" ? ".mocharc" : `${runner}.config.`))
      add(runner, `the workspace has a ${runner} config file`);
  }
  if (isRecord(pkg?.jest)) add("jest", 'package.json has a "jest" key');
  const why = await pytestMarker(names, read);
  if (why !== undefined) add("pytest", why);
  if (names.has("go.mod")) add("go", "the workspace has go.mod");
  if (names.has("Cargo.toml")) add("cargo", "the workspace has Cargo.toml");
  return found;
}

async function pytestMarker(names: ReadonlySet<string>, read: (file: string) => Promise<string>): Promise<string | undefined> {
  if (names.has("pytest.ini")) return "the workspace has pytest.ini";
  if (names.has("conftest.py")) return "the workspace has conftest.py";
  const pyproject = await read("pyproject.toml");
  if (/^\[tool\.pytest/m.test(pyproject)) return "pyproject.toml configures pytest";
  if (/^\[tool:pytest\]/m.test(await read("setup.cfg"))) return "setup.cfg configures pytest";
  if (/^\[pytest\]/m.test(await read("tox.ini"))) return "tox.ini configures pytest";
  if (/\bpytest\b/.test(pyproject)) return "pyproject.toml depends on pytest";
  for (const file of [...names].filter((n) => /^requirements.*\.txt$/.test(n)))
    if (/^\s*pytest\b/m.test(await read(file))) return `${file} lists pytest`;
  return undefined;
}
