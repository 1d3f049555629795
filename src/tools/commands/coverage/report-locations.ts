// Where a workspace's coverage reports are: the places runners write to by default, and the
// places the project's own config names (vitest's coverage.reportsDirectory, jest's
// coverageDirectory, nyc's and c8's report-dir, coverage.py's [xml]/[json]/[lcov] output, pytest's
// --cov-report=xml:path). Config files are read as text, never run: a directory computed in code
// is not seen, and the answer says which places were looked at.
import type { ToolContext } from "../../../capabilities/context.ts";

export type Format = "lcov" | "istanbul" | "istanbul-summary" | "cobertura" | "coverage.py" | "go";

export interface Candidate {
  /** Workspace-relative path of a report file. */
  path: string;
  format: Format;
  /** The config file (and key) that names it; undefined for a default place. */
  namedBy?: string;
}

/** Where runners write their reports by default, with the format each is in. */
const DEFAULTS: readonly [string, Format][] = [
  ["coverage/lcov.info", "lcov"],
  ["lcov.info", "lcov"],
  ["coverage/coverage-final.json", "istanbul"],
  ["coverage/coverage-summary.json", "istanbul-summary"],
  ["coverage/cobertura-coverage.xml", "cobertura"],
  ["coverage.xml", "cobertura"],
  ["coverage.json", "coverage.py"],
  ["coverage.lcov", "lcov"],
  ["coverage.out", "go"],
  ["cover.out", "go"],
  ["coverage.txt", "go"],
];

/** The files an istanbul-style reports directory holds, by reporter. */
const IN_REPORTS_DIR: readonly [string, Format][] = [
  ["lcov.info", "lcov"],
  ["coverage-final.json", "istanbul"],
  ["coverage-summary.json", "istanbul-summary"],
  ["cobertura-coverage.xml", "cobertura"],
];

const JS_CONFIGS = ["vitest.config", "vite.config", "jest.config"].flatMap((n) =>
  ["ts", "mts", "cts", "js", "mjs", "cjs", "json"].map((e) => `${n}.${e}`),
);
const NYC_CONFIGS = [".nycrc", ".nycrc.json", ".c8rc", ".c8rc.json"];
const PY_CONFIGS = [".coveragerc", "setup.cfg", "tox.ini", "pyproject.toml", "pytest.ini"];
const MAX_CONFIG_BYTES = 256 * 1024;

/** Every place a report may be: the config-named ones first, then the defaults. */
export async function reportCandidates(ctx: ToolContext): Promise<Candidate[]> {
  const named: Candidate[] = [];
  const read = (path: string) => ctx.fs.readText(path, { maxBytes: MAX_CONFIG_BYTES }).catch(() => undefined);
  for (const file of JS_CONFIGS) {
    const text = await read(file);
    if (text === undefined) continue;
    for (const key of ["reportsDirectory", "coverageDirectory"]) {
      for (const dir of stringValues(text, key)) named.push(...inReportsDir(dir, `${file} ${key}`));
    }
  }
  const pkg = await read("package.json");
  if (pkg !== undefined) {
    for (const dir of stringValues(pkg, "coverageDirectory")) named.push(...inReportsDir(dir, "package.json jest.coverageDirectory"));
    for (const dir of stringValues(pkg, "report-dir")) named.push(...inReportsDir(dir, "package.json report-dir"));
  }
  for (const file of NYC_CONFIGS) {
    const text = await read(file);
    if (text === undefined) continue;
    for (const key of ["report-dir", "reportDir"])
      for (const dir of stringValues(text, key)) named.push(...inReportsDir(dir, `${file} ${key}`));
  }
  for (const file of PY_CONFIGS) {
    const text = await read(file);
    if (text === undefined) continue;
    named.push(...pythonOutputs(text, file));
  }
  const seen = new Set<string>();
  const all = [...named, ...DEFAULTS.map(([path, format]) => ({ path, format }))];
  return all.filter((c) => {
    if (seen.has(c.path)) return false;
    seen.add(c.path);
    return true;
  });
}

/** The directories that were named or are default, for saying where nothing was found. */
export function reportDirectories(candidates: readonly Candidate[]): string[] {
  return [...new Set(candidates.map((c) => (c.path.includes("/") ? c.path.slice(0, c.path.lastIndexOf("/")) : ".")))];
}

function inReportsDir(dir: string, namedBy: string): Candidate[] {
  const clean = normalise(dir);
  if (clean === undefined) return [];
  return IN_REPORTS_DIR.map(([file, format]) => ({ path: clean === "." ? file : `${clean}/${file}`, format, namedBy }));
}

/** `key: "value"`, `key = 'value'` or `"key": "value"` in a config's text (literal strings only). */
function stringValues(text: string, key: string): string[] {
  const escaped = key.replace(/[-.]/g, "\\$&");
  const re = new RegExp(`["']?${escaped}["']?\\s*[:=]\\s*["'\`]([^"'\`\\n]+)["'\`]`, "g");
  return [...text.matchAll(re)].map((m) => m[1] ?? "").filter((v) => v !== "");
}

/** coverage.py's output settings ([xml] output = x, [tool.coverage.xml] output = "x") and pytest-cov's --cov-report=kind:path. */
function pythonOutputs(text: string, file: string): Candidate[] {
  const out: Candidate[] = [];
  const kinds: readonly [string, Format][] = [
    ["xml", "cobertura"],
    ["json", "coverage.py"],
    ["lcov", "lcov"],
  ];
  let section = "";
  for (const line of text.split(/\r?\n/)) {
    const header = /^\s*\[([^\]]+)\]/.exec(line);
    if (header !== null) {
      section = header[1]?.trim() ?? "";
      continue;
    }
    const kind = kinds.find(([k]) => [k, `coverage:${k}`, `tool.coverage.${k}`].includes(section));
    const output = /^\s*output\s*=\s*["']?([^"'\s#]+)/.exec(line);
    const path = output === null ? undefined : normalise(output[1] ?? "");
    if (kind !== undefined && path !== undefined) out.push({ path, format: kind[1], namedBy: `${file} [${section}] output` });
  }
  for (const m of text.matchAll(/--cov-report[= ](xml|json|lcov):([^\s"',\]]+)/g)) {
    const kind = kinds.find(([k]) => k === m[1]);
    const path = normalise(m[2] ?? "");
    if (kind !== undefined && path !== undefined) out.push({ path, format: kind[1], namedBy: `${file} --cov-report` });
  }
  return out;
}

/** A relative path inside the workspace as written in a config ("./x/" is "x"); undefined for others. */
function normalise(path: string): string | undefined {
  const p = path.trim().replace(/^\.\//, "").replace(/\/+$/, "");
  if (p === "" || p === ".") return ".";
  if (p.startsWith("/") || p.split("/").includes("..") || p.includes("${") || p.includes("<")) return undefined;
  return p;
}
