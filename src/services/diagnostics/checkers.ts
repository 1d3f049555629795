// The checker CLIs getDiagnostics (and fixAllLintErrors, for those that fix) can run, each with the
// files it checks, how a project declares it, its argv and the parser of its machine-readable
// output. A checker runs when the project declares it (a config file, a dependency); a Python
// project that declares neither ruff nor pyright gets whichever is installed.
// Every checker runs project code or reads project config that can: eslint.config.js, a
// .prettierrc.cjs, tsc plugins, cargo's build scripts and proc macros, go vet's cgo. That is the
// user's own tooling, as their IDE runs it; the tools' descriptions and the README say so (go vet
// runs with cgo, toolexec, toolchain downloads and module fetches turned off: GO_CHECK_ENV). What
// the bridge controls is where the checkers themselves write: tsc's incremental build info goes to
// /dev/null (a tsconfig's tsBuildInfoFile may point through a symlink to outside), and fixers write
// only as src/services/diagnostics/lint-fixes.ts allows.
import type { RunResult } from "../../capabilities/exec/exec.ts";
import { pathArgument } from "../../capabilities/exec/toolchain.ts";
import type { Diagnostic } from "./diagnostic.ts";
import { parseCargoJson } from "./parsers/cargo-json.ts";
import { parseEslintJson } from "./parsers/eslint-json.ts";
import { parseGithubAnnotations, parseLocationLines } from "./parsers/location-lines.ts";
import { goPackageOf } from "./parsers/paths.ts";
import { parsePyrightJson } from "./parsers/pyright-json.ts";
import { parseRuffJson } from "./parsers/ruff-json.ts";
import { parseTscOutput } from "./parsers/tsc-output.ts";
import type { ProjectFacts } from "./project-facts.ts";
import { GO_CHECK_ENV } from "../../security/commands/rules/go-rules.ts";

export interface Checker {
  /** The diagnostics' source. */
  name: string;
  program: string;
  /** A type checker or compiler: what a language server for the language reports too. */
  checksTypes?: boolean;
  extensions: readonly string[];
  declared(project: ProjectFacts): Promise<boolean>;
  /** Used, when installed, even though the project does not declare it. */
  fallback?(project: ProjectFacts): Promise<boolean>;
  /**
   * Its argv for the file or the project; `scratch` is a fresh private directory outside the
   * workspace, removed after the run, for what it would otherwise write where its config says.
   */
  args(file: string | undefined, scratch: string): readonly string[];
  /** Added to its environment (go's, that keep it from running programs). */
  env?: Readonly<Record<string, string>>;
  /**
   * The argv that fixes what it can (fixAllLintErrors), for these targets; the output is read the
   * same way. "output": it writes nothing and reports each file's fixed text, which the bridge
   * writes through the jail (targets: the file, or "."). "in-place": it writes its fixes, so its
   * targets are jail-listed regular files, never a directory (lint-fixes.ts). "piped": each file's
   * text goes in on stdin and its fixed text comes back on stdout, which the bridge writes through
   * the jail (targets: one file, named only for the linter's config and language).
   */
  fixArgs?(targets: readonly string[]): readonly string[];
  fixes?: "output" | "in-place" | "piped";
  parse(result: RunResult, root: string): Diagnostic[] | Promise<Diagnostic[]>;
}

/** The file to check, or the whole project. */
const target = (file: string | undefined) => (file === undefined ? "." : pathArgument(file));

const JS = [".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts"];
const PY = [".py", ".pyi"];

const pythonProject = async (p: ProjectFacts) =>
  p.hasFile("pyproject.toml", "setup.py", "setup.cfg", "requirements") || [...p.names].some((n) => n.endsWith(".py"));
const declaresRuff = async (p: ProjectFacts) =>
  p.hasFile("ruff.toml", ".ruff.toml") || /^\[tool\.ruff/m.test(await p.read("pyproject.toml"));
const declaresPyright = async (p: ProjectFacts) =>
  p.hasFile("pyrightconfig.json") || p.deps.has("pyright") || /^\[tool\.(pyright|basedpyright)/m.test(await p.read("pyproject.toml"));
const undeclaredPython = async (p: ProjectFacts) => (await pythonProject(p)) && !(await declaresRuff(p)) && !(await declaresPyright(p));

export const CHECKERS: readonly Checker[] = [
  {
    name: "tsc",
    program: "tsc",
    checksTypes: true,
    extensions: [".ts", ".tsx", ".mts", ".cts"],
    declared: async (p) => p.names.has("tsconfig.json"),
    // --noEmit still writes the build info of an incremental or composite project, wherever its
    // tsBuildInfoFile says (through a symlink too): /dev/null takes it, and the check is the same.
    // A tsconfig's generateTrace makes tsc write its trace files into any directory, outside the
    // workspace too: the private scratch directory takes them (tsc 5.9 fails on /dev/null there).
    args: (_file, scratch) => [
      "--noEmit",
      "--pretty",
      "false",
      "--tsBuildInfoFile",
      "/dev/null",
      "--generateTrace",
      `${scratch}/trace`,
      "-p",
      ".",
    ],
    parse: (r, root) => parseTscOutput(r.stdout, root),
  },
  {
    name: "eslint",
    program: "eslint",
    extensions: [...JS, ".vue", ".svelte"],
    declared: async (p) => p.hasFile("eslint.config.", ".eslintrc") || p.deps.has("eslint") || p.packageJson?.eslintConfig !== undefined,
    args: (file) => ["-f", "json", target(file)],
    fixArgs: (targets) => ["--fix-dry-run", "-f", "json", ...targets],
    fixes: "output",
    parse: (r, root) => parseEslintJson(r.stdout, root),
  },
  {
    name: "biome",
    program: "biome",
    extensions: [...JS, ".json", ".jsonc", ".css", ".graphql"],
    declared: async (p) => p.hasFile("biome.json") || p.deps.has("@biomejs/biome"),
    args: (file) => ["lint", "--reporter=github", target(file)],
    // Piped, not in place: biome writing a file itself follows a symlink swapped in for it.
    fixArgs: (targets) => ["lint", "--write", `--stdin-file-path=${targets[0] ?? ""}`],
    fixes: "piped",
    parse: (r, root) => parseGithubAnnotations(r.stdout, root, { source: "biome" }),
  },
  {
    name: "ruff",
    program: "ruff",
    extensions: PY,
    declared: declaresRuff,
    fallback: undeclaredPython,
    // --no-fix: a config with fix = true would otherwise change files while only checking.
    args: (file) => ["check", "--no-fix", "--output-format=json", target(file)],
    // --force-exclude: the project's excludes apply to the listed files as they do to a walk.
    fixArgs: (targets) => ["check", "--fix", "--force-exclude", "--output-format=json", ...targets],
    fixes: "in-place",
    parse: (r, root) => parseRuffJson(r.stdout, root),
  },
  {
    name: "pyright",
    program: "pyright",
    checksTypes: true,
    extensions: PY,
    declared: declaresPyright,
    fallback: undeclaredPython,
    args: (file) => ["--outputjson", ...(file === undefined ? [] : [pathArgument(file)])],
    parse: (r, root) => parsePyrightJson(r.stdout, root),
  },
  {
    name: "cargo",
    program: "cargo",
    checksTypes: true,
    extensions: [".rs"],
    declared: async (p) => p.names.has("Cargo.toml"),
    args: () => ["check", "--message-format=json", "--quiet"],
    parse: (r, root) => parseCargoJson(r.stdout, root),
  },
  {
    name: "go vet",
    program: "go",
    extensions: [".go"],
    declared: async (p) => p.names.has("go.mod"),
    args: (file) => ["vet", file === undefined ? "./..." : goPackageOf(file)],
    env: GO_CHECK_ENV,
    parse: (r, root) => parseLocationLines(r.stderr, root, { source: "go vet" }),
  },
];
