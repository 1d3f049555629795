// getProjectContext: the orientation a model needs before working in a project, in one call.
import * as v from "valibot";
import { defineTool } from "../platform/define-tool.ts";
import { collectProjectContext } from "../../services/project/project-context.ts";

export default defineTool({
  name: "getProjectContext",
  title: "Project context",
  description:
    "Gets a project's context in one call: kind and name, key files to read first, layout with file counts, and recent changes (git log when git is present, else modification times).",
  searchHint: "project context overview orientation structure recent changes key files summary",
  input: v.strictObject({}),
  output: v.object({
    name: v.string(),
    kinds: v.array(v.string()),
    keyFiles: v.pipe(v.array(v.string()), v.description("Files at the root worth reading first.")),
    layout: v.pipe(
      v.array(v.object({ path: v.string(), files: v.number() })),
      v.description('Top-level directories (and "." for root files) by file count, .gitignore honoured.'),
    ),
    fileCount: v.number(),
    recentChanges: v.object({
      source: v.picklist(["git", "mtime"]),
      branch: v.optional(v.string()),
      scope: v.optional(v.pipe(v.string(), v.description("With the workspace a subfolder of its repository: what the list covers."))),
      changes: v.array(
        v.object({ path: v.string(), when: v.pipe(v.string(), v.description("ISO time of the commit (git) or the modification.")) }),
      ),
    }),
  }),
  annotations: { readOnlyHint: true },
  requires: { optionalProbes: ["git"] },
  slim: true,
  async handler(_input, ctx) {
    const c = await collectProjectContext(ctx);
    return {
      name: c.project.name,
      kinds: c.project.kinds,
      keyFiles: c.keyFiles,
      layout: c.layout,
      fileCount: c.fileCount,
      recentChanges: c.recent,
    };
  },
});
