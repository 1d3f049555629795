// What each allowlisted tool can be made to run through its own arguments, and the line drawn for
// it (src/security/commands/command-policy.ts has the rest of the policy). The line: a call may run the project's
// own code, as the tool is meant to (npm run/test of package.json scripts, cargo run/test/build,
// go run/test/generate of packages in the workspace, pytest/vitest/jest on its tests: code the user
// wrote, the same runTests runs); it may not name a second program, inline code or a shell, fetch
// and run a package by name or from a URL, git or a path outside the workspace, point the tool at
// configuration that names programs, or change what later calls run outside the workspace (global
// installs, user config, credentials). Runner subcommands that fetch and run code ("npm exec",
// "npx", "go run pkg@v", installs onto PATH) are the user's choice: --allow-command "npm exec"
// allows exactly that one. One file per tool family under rules/.
import { cargoRules } from "./rules/cargo-rules.ts";
import { CHECK_TOOL_RULES } from "./rules/check-tool-rules.ts";
import { gitRules } from "./rules/git-rules.ts";
import { goRules } from "./rules/go-rules.ts";
import { npmRules, npxRules } from "./rules/npm-rules.ts";
import type { ToolRules } from "./rules/tool-rules.ts";

/** Per allowlisted tool; a command added with --allow-command gets the path and network rules only. */
export const TOOL_RULES: Readonly<Record<string, ToolRules>> = {
  git: gitRules,
  npm: npmRules,
  npx: npxRules,
  cargo: cargoRules,
  go: goRules,
  ...CHECK_TOOL_RULES,
};

/** Subcommands a user may allow by name (--allow-command "npm exec"), and the command allowing npx; any cargo plugin too. */
export const RUNNER_SUBCOMMANDS = ["npm exec", "npm init", "cargo install", "go install", "go run", "go tool"];
