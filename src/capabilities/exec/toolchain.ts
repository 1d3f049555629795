// The programs tools may run with an argv they build themselves (runTests, getDiagnostics, the
// formatters, audits): test runners, checkers, formatters, package managers. The model never names
// the program here, and what it does pass (a test filter, a file) is checked by the tool: files go
// through the jail, filters never start with "-" and are passed as one argument.
// `node` is on the list, and only as `node --test`: the interpreter rule of runCommand is about a
// program the caller chooses running code the caller writes; here the workspace declares its
// runner (its package.json test script says `node --test`), the bridge builds the argv, and what
// runs is the project's own test files, exactly as runTests runs vitest on the project's tests.
import { ToolError } from "../../errors.ts";

/** Program -> the arguments it must start with (none: whatever argv the tool built). */
const TOOLCHAIN: Readonly<Record<string, readonly string[]>> = {
  vitest: [],
  jest: [],
  mocha: [],
  node: ["--test"],
  pytest: [],
  go: [],
  cargo: [],
  tsc: [],
  tsgo: [],
  eslint: [],
  biome: [],
  ruff: [],
  pyright: [],
  prettier: [],
  black: [],
  gofmt: [],
  rustfmt: [],
  npm: [],
  "pip-audit": [],
  // Audits only (src/services/audit/audit-runs.ts says why these command lines run no workspace code).
  pnpm: ["audit"],
  "cargo-audit": ["audit"],
  govulncheck: ["-json"],
};

export function assertToolchainArgv(command: string, args: readonly string[]): void {
  const prefix = TOOLCHAIN[command];
  if (prefix === undefined || prefix.some((p, i) => args[i] !== p)) {
    throw new ToolError(
      "internal_error",
      `\`${command} ${args.slice(0, 2).join(" ")}\` is not a toolchain command line the bridge builds`,
      {
        suggestion: "This is a bridge bug: toolchain programs are listed in src/capabilities/exec/toolchain.ts.",
      },
    );
  }
}

export function isToolchainProgram(command: string): boolean {
  return TOOLCHAIN[command] !== undefined;
}

/** A user value (test filter, name pattern) that is safe as one argument of a tool-built argv. */
export function checkedFilter(value: string, what: string): string {
  if (value.startsWith("-") || value.includes("\0")) {
    throw new ToolError("invalid_arguments", `The ${what} may not start with "-" or contain NUL: ${value.slice(0, 80)}`, {
      suggestion: `Pass a plain ${what}, without leading dashes.`,
    });
  }
  return value;
}

/**
 * A workspace path as a positional argument: "./name", so a file the model named "--require=x.js"
 * reaches the tool as a path and never as one of its options.
 */
export function pathArgument(path: string): string {
  return path.startsWith("/") || path.startsWith("./") ? path : `./${path}`;
}
