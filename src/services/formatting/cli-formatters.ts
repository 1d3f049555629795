// The formatter CLIs, each fed the file's text on stdin and read back from stdout (so the formatter
// writes nothing itself; the bridge writes through the jail). Chosen per file: one the project
// declares (prettier, biome, black, ruff), else the language's own (gofmt, rustfmt) or an
// installed prettier or black.
import { ToolError } from "../../errors.ts";
import { extensionOf } from "../diagnostics/parsers/paths.ts";
import type { ProjectFacts } from "../diagnostics/project-facts.ts";
import type { ToolContext } from "../../capabilities/context.ts";
import type { FormatterBackend } from "./formatter-backend.ts";

interface CliFormatter {
  name: string;
  program: string;
  extensions: readonly string[];
  declared(project: ProjectFacts): Promise<boolean>;
  /** Used when installed, even if the project does not declare it. */
  fallback: boolean;
  args(file: string, project: ProjectFacts): Promise<readonly string[]>;
}

const JS = [".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts"];
const PY = [".py", ".pyi"];
const pyproject = (p: ProjectFacts) => p.read("pyproject.toml");

const CLI_FORMATTERS: readonly CliFormatter[] = [
  {
    name: "prettier",
    program: "prettier",
    extensions: [
      ...JS,
      ".json",
      ".jsonc",
      ".json5",
      ".css",
      ".scss",
      ".less",
      ".html",
      ".vue",
      ".md",
      ".mdx",
      ".yaml",
      ".yml",
      ".graphql",
      ".gql",
    ],
    declared: async (p) => p.hasFile(".prettierrc", "prettier.config.") || p.deps.has("prettier") || p.packageJson?.prettier !== undefined,
    fallback: true,
    args: async (file) => ["--stdin-filepath", file],
  },
  {
    name: "biome",
    program: "biome",
    extensions: [...JS, ".json", ".jsonc", ".css", ".graphql"],
    declared: async (p) => p.hasFile("biome.json") || p.deps.has("@biomejs/biome"),
    fallback: false,
    args: async (file) => ["format", `--stdin-file-path=${file}`],
  },
  {
    name: "black",
    program: "black",
    extensions: PY,
    declared: async (p) => /^\[tool\.black\]/m.test(await pyproject(p)),
    fallback: true,
    args: async (file) => ["--quiet", "--stdin-filename", file, "-"],
  },
  {
    name: "ruff",
    program: "ruff",
    extensions: PY,
    declared: async (p) => /^\[tool\.ruff\.format\]/m.test(await pyproject(p)) || p.hasFile("ruff.toml", ".ruff.toml"),
    fallback: false,
    args: async (file) => ["format", "--stdin-filename", file, "-"],
  },
  { name: "gofmt", program: "gofmt", extensions: [".go"], declared: async () => false, fallback: true, args: async () => [] },
  {
    name: "rustfmt",
    program: "rustfmt",
    extensions: [".rs"],
    declared: async () => false,
    fallback: true,
    // On stdin rustfmt cannot see the crate's edition, so it is read from Cargo.toml.
    args: async (_file, p) => [
      "--emit",
      "stdout",
      "--edition",
      /^edition\s*=\s*"(\d{4})"/m.exec(await p.read("Cargo.toml"))?.[1] ?? "2021",
    ],
  },
];

export const FORMATTER_NAMES = CLI_FORMATTERS.map((f) => f.name);

/** The CLI that formats `file`: `only` if given, else declared ones first, then installed fallbacks. */
async function chooseFormatter(
  ctx: ToolContext,
  file: string,
  opts: { project: ProjectFacts; only?: string | undefined },
): Promise<CliFormatter | undefined> {
  const { project, only } = opts;
  const ext = extensionOf(file);
  const candidates = CLI_FORMATTERS.filter((f) => f.extensions.includes(ext) && (only === undefined || f.name === only));
  for (const f of candidates) if ((only !== undefined || (await f.declared(project))) && (await ctx.exec.hasToolchain(f.program))) return f;
  for (const f of candidates) if (f.fallback && (await ctx.exec.hasToolchain(f.program))) return f;
  return undefined;
}

export function cliFormatterBackend(only?: string): FormatterBackend {
  return {
    name: only ?? "formatter CLIs",
    handles: async (ctx, file, project) => (await chooseFormatter(ctx, file, { project, only })) !== undefined,
    async format(ctx, file, text, project) {
      const formatter = await chooseFormatter(ctx, file, { project, only });
      if (formatter === undefined)
        throw new ToolError("not_detected", `No formatter for ${file}`, { suggestion: "Install the project's formatter." });
      const result = await ctx.exec.runToolchain(formatter.program, {
        args: await formatter.args(file, project),
        stdin: text,
        timeoutMs: 60_000,
        maxOutputBytes: 16 * 1024 * 1024,
        env: { NO_COLOR: "1" },
      });
      if (result.exitCode !== 0 || result.stdoutTruncated || (result.stdout === "" && text !== "")) {
        throw new ToolError(
          "tool_failed",
          `${formatter.name} could not format ${file} (exit ${result.exitCode}): ${result.stderr.trim().split("\n").slice(0, 8).join("\n").slice(0, 1500)}`,
          {
            suggestion: "Fix the syntax error it reports, then format again.",
          },
        );
      }
      return result.stdout;
    },
  };
}
