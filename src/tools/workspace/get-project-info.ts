// getProjectInfo: what kind of project the root is, from its marker files alone (no commands
// run), so it is cheap and safe to call first in any session.
import * as v from "valibot";
import { detectProject, ProjectInfo } from "../../services/project/detect-project.ts";
import { defineTool } from "../platform/define-tool.ts";

export default defineTool({
  name: "getProjectInfo",
  title: "Project info",
  description:
    "Detects the project kind (Node/TypeScript, Rust, Go, Python, Java, Deno, Make, git) from root marker files, with package.json name, scripts and package manager.",
  searchHint: "project type language framework package.json scripts package manager manifest",
  input: v.strictObject({}),
  output: ProjectInfo,
  annotations: { readOnlyHint: true },
  handler: (_input, ctx) => detectProject(ctx),
});
