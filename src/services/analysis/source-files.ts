// The source files an analysis covers: a file as given, or a directory's files in a programming
// language some installed server claims (not JSON, YAML, CSS or HTML: they declare no API), as the
// search tools list them (.gitignore honoured, dependencies and build output left out).
import type { ToolContext } from "../../capabilities/context.ts";
import { ToolError } from "../../errors.ts";
import { listFiles } from "../search/file-list.ts";
import { isDependencyPath } from "../conventions/test-files.ts";

const NOT_CODE = new Set(["json", "jsonc", "yaml", "css", "scss", "less", "html", "markdown", "shellscript"]);

export interface SourceFiles {
  files: string[];
  /** Files past `max`, not covered. */
  left: number;
}

export async function sourceFilesUnder(ctx: ToolContext, path: string, opts: { max: number }): Promise<SourceFiles> {
  const stat = await ctx.fs.stat(path);
  const rel = ctx.fs.relative(await ctx.fs.resolve(path));
  if (stat.isFile) return { files: [rel], left: 0 };
  if (!stat.isDirectory)
    throw new ToolError("invalid_arguments", `${path} is neither a file nor a directory`, {
      suggestion: "Pass a source file or a folder.",
    });
  const listed = await listFiles(ctx, path, { includeHidden: false, gitignore: true });
  const prefix = rel === "" ? "" : `${rel}/`;
  const code = listed.files
    .map((f) => `${prefix}${f}`)
    .filter((f) => {
      const language = ctx.lsp.languageOf(f);
      return language !== undefined && !NOT_CODE.has(language) && !isDependencyPath(f);
    });
  return { files: code.slice(0, opts.max), left: Math.max(0, code.length - opts.max) };
}
