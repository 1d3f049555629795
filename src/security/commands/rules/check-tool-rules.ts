// The rules of the test runners and checkers (src/security/commands/rules/tool-rules.ts): what in
// their own options starts a server or debugger that runs code on request, fetches and runs a
// package, or brings in settings and code from elsewhere. The project's own config files and test
// files are the project's code, which these tools are meant to run.
import { pluginRefusal, pytestPlugins } from "../project-config.ts";
import { optionValues, ownArguments, positionals, refusedLong, setsShort } from "../option-match.ts";
import { type RuleVerdict, type ToolRules, refuse } from "./tool-rules.ts";

const pytest: ToolRules = {
  verdict(args) {
    for (const arg of ownArguments(args)) {
      if (setsShort(arg, "o", { clusters: true }) || refusedLong(arg, ["override-ini"]) !== undefined)
        return refuse("pytest's `-o` can set addopts or pythonpath, bringing in arguments and code from elsewhere");
    }
    const refusal = pluginRefusal(pytestPlugins(args), "in the arguments");
    return refusal === undefined ? undefined : refuse(refusal.why);
  },
};

const jest: ToolRules = {
  verdict(args) {
    const own = ownArguments(args);
    if (optionValues(own, { long: ["config"], short: ["c"] }).some((v) => v.trim().startsWith("{")))
      return refuse("jest's inline JSON `--config` can name any module (transform, runner, setup) to run");
    return undefined;
  },
};

const vitest: ToolRules = {
  verdict(args) {
    for (const arg of ownArguments(args)) {
      const hit = refusedLong(arg, ["api", "ui", "inspect", "inspect-brk", "open"]);
      if (hit !== undefined) return refuse(`vitest's \`--${hit}\` starts a server or debugger that runs code on request`);
    }
    return undefined;
  },
};

const eslint: ToolRules = {
  verdict(args): RuleVerdict | undefined {
    for (const arg of ownArguments(args)) {
      const hit = refusedLong(arg, ["inspect-config", "init"]);
      if (hit === "init") return refuse("`eslint --init` fetches and runs an initializer package (npm init @eslint/config)", "npm init");
      if (hit !== undefined) return refuse("eslint's `--inspect-config` starts a server and opens a browser");
    }
    return undefined;
  },
  // eslint never lints node_modules (its default ignores) unless a path argument names it.
  rewrites: (args) =>
    ownArguments(args).some((a) => /^--fix(=|$)/.test(a)) ? { scope: "arguments", skips: [".git", "node_modules"] } : undefined,
};

const biome: ToolRules = {
  verdict(args) {
    const [sub] = positionals(ownArguments(args));
    return sub !== undefined && ["start", "stop", "lsp-proxy", "__run_server", "__print_socket"].includes(sub)
      ? refuse(`\`biome ${sub}\` starts or controls a background daemon`)
      : undefined;
  },
  // biome 1 writes with --apply/--apply-unsafe (and format --write), biome 2 with --write/--fix.
  rewrites: (args) =>
    ownArguments(args).some((a) => /^--(write|fix|apply|apply-unsafe)(=|$)/.test(a))
      ? { scope: "arguments", skips: [".git", "node_modules"] }
      : undefined,
};

/** tsc runs nothing its arguments name; its response files (@file) are read by the path rule. */
const tsc: ToolRules = { verdict: () => undefined };

export const CHECK_TOOL_RULES: Readonly<Record<string, ToolRules>> = { pytest, jest, vitest, eslint, biome, tsc };
