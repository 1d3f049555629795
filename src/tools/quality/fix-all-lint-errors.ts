// fixAllLintErrors: runs the project's linters with their fix flags (eslint --fix, biome lint
// --write, ruff check --fix), on one file or the workspace, and reports what is left to fix by hand.
import * as v from "valibot";
import { ToolError } from "../../errors.ts";
import { chooseCheckers, runCheckers } from "../../services/diagnostics/cli-backend.ts";
import { defineTool } from "../platform/define-tool.ts";
import { DiagnosticsResult, shape } from "./get-diagnostics.ts";

const LINTERS = ["eslint", "biome", "ruff"] as const;

export default defineTool({
  name: "fixAllLintErrors",
  title: "Fix lint errors",
  description:
    "Applies the project's linters' automatic fixes (eslint, biome, ruff; they run its config code) to a file or the workspace's files, never through a symlink, and lists the problems left.",
  searchHint: "fix lint errors autofix eslint --fix biome ruff --fix lint problems",
  input: v.strictObject({
    file: v.optional(v.pipe(v.string(), v.description("One file (default: all)."))),
    linter: v.optional(v.pipe(v.picklist(LINTERS), v.description("Only this linter (default: every one the project uses)."))),
  }),
  output: DiagnosticsResult,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
  // rg lists the workspace's regular files, the only ones biome and ruff are given to fix.
  requires: { optionalProbes: ["rg"] },
  timeoutMs: 300_000,
  async handler(input, ctx) {
    const file = input.file === undefined ? undefined : ctx.fs.relative(await ctx.fs.resolve(input.file));
    const linters = (await chooseCheckers(ctx, file, { fixing: true })).filter(
      (c) => input.linter === undefined || c.name === input.linter,
    );
    if (linters.length === 0) {
      throw new ToolError(
        "not_detected",
        `No linter that fixes (${LINTERS.join(", ")}) is configured for ${file ?? "this workspace"}${input.linter === undefined ? "" : ` as ${input.linter}`}`,
        {
          suggestion: "Configure eslint, biome or ruff in the project (a config file or a dependency), then call again.",
        },
      );
    }
    return shape(await runCheckers(ctx, linters, { file, fixing: true }), { minSeverity: "hint", maxResults: 200 });
  },
});
