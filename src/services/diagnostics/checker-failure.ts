// Why a checker ran and checked nothing, in one line with its fix: eslint prints "Oops! Something
// went wrong!", its version, the one line that says why, and then a stack trace; the last lines of
// that output are the stack's tail and say nothing. The known causes get their cause and fix in
// plain words; anything else keeps the first line that reads as a message, never a stack.

/** Lines of a stack trace, a banner or a version stamp: never the reason. */
const NOISE = /^\s*(?:at\s|\^+$|Oops! Something went wrong|ESLint: \d|Node\.js v\d|file:\/\/|node:internal|\{|\}|$)/;

interface Known {
  pattern: RegExp;
  say(m: RegExpExecArray): string;
}

const ESLINT: readonly Known[] = [
  {
    pattern: /ESLint couldn't find an eslint\.config\.\(js\|mjs\|cjs\) file/,
    say: () =>
      "eslint 9 found no eslint.config.js, .mjs or .cjs (a .eslintrc file is read only by eslint 8): add an eslint.config.js, e.g. `npx @eslint/migrate-config .eslintrc.json` converts the old one",
  },
  {
    pattern: /ESLint couldn't find (?:a configuration file|the config "([^"]+)")/,
    say: (m) =>
      m[1] === undefined
        ? "eslint found no configuration file: add an eslint.config.js at the project root"
        : `eslint's config extends "${m[1]}", which is not installed: npm install -D the package that provides it`,
  },
  {
    pattern: /ESLint couldn't find the plugin "([^"]+)"/,
    say: (m) => `eslint's config uses the plugin ${m[1]}, which is not installed: npm install -D ${m[1]}`,
  },
  {
    pattern: /Cannot find (?:package|module) '([^']+)'(?: imported from (\S+))?/,
    say: (m) =>
      `${m[2] === undefined ? "eslint's config" : (m[2].split("/").pop() ?? "eslint's config")} imports ${m[1]}, which is not installed: npm install -D ${packageOf(m[1] ?? "")}`,
  },
  {
    pattern: /You have used a rule which requires (?:type information|parserServices)/,
    say: () =>
      "a rule in eslint's config needs type information and the files were not given a TypeScript project: set languageOptions.parserOptions.projectService (or project) in eslint.config for those files, or turn the typed rules off for files outside the tsconfig",
  },
  {
    pattern: /Error while loading rule '([^']+)': (.+)/,
    say: (m) => `eslint could not load the rule ${m[1]}: ${m[2]}`,
  },
  {
    pattern: /specifies rule "([^"]+)", but could not find plugin "([^"]+)"/,
    say: (m) =>
      `eslint's config turns on the rule ${m[1]} without loading the plugin ${m[2]}: add it to that config object's plugins (installed with npm install -D ${pluginPackage(m[2] ?? "")}), or remove the rule`,
  },
  {
    pattern: /Could not find "([^"]+)" in plugin "([^"]+)"/,
    say: (m) =>
      `eslint's config names the rule ${m[1]}, which the installed plugin ${m[2]} does not have: update the plugin or remove the rule`,
  },
];

/** One line: the cause and the fix for a known failure, else the first line of the output that reads as a message. */
export function checkerFailure(program: string, output: string): string {
  const clean = output.replace(/\x1b\[[0-9;]*m/g, "");
  if (program === "eslint") {
    for (const known of ESLINT) {
      const m = known.pattern.exec(clean);
      if (m !== null) return known.say(m);
    }
  }
  const lines = clean
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => !NOISE.test(l));
  if (program !== "eslint") return lines.slice(-5).join("\n").slice(0, 1000);
  // eslint's own message comes first, before the stack: the first line that reads as an error.
  const message = lines.find((l) => /(?:error|cannot|not found|no such|invalid|failed|unexpected)/i.test(l));
  return (message ?? lines[0] ?? "").slice(0, 500);
}

/** The package of an import specifier: "@scope/pkg/sub" is "@scope/pkg", "pkg/sub" is "pkg". */
function packageOf(specifier: string): string {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : (parts[0] ?? specifier);
}

/** eslint's naming convention for a plugin's package: "react" is eslint-plugin-react, "@x" is @x/eslint-plugin. */
function pluginPackage(name: string): string {
  if (name.startsWith("@")) return name.includes("/") ? name.replace("/", "/eslint-plugin-") : `${name}/eslint-plugin`;
  return `eslint-plugin-${name}`;
}
