// listVSCodeTasks: the tasks VS Code knows (tasks.json and the task providers: npm scripts, tsc...).
import * as v from "valibot";
import { defineTool } from "../platform/define-tool.ts";

const Task = v.object({
  name: v.string(),
  source: v.string(),
  type: v.string(),
  group: v.optional(v.string()),
  detail: v.optional(v.string()),
});

export default defineTool({
  name: "listVSCodeTasks",
  title: "List VS Code tasks",
  description: "Lists the tasks VS Code can run (tasks.json, npm scripts and other task providers): name, source, type, group.",
  searchHint: "list vscode tasks tasks.json build task npm scripts",
  input: v.strictObject({}),
  output: v.object({ tasks: v.array(Task) }),
  annotations: { readOnlyHint: true },
  extensionProtocol: "1.2.0",
  async viaExtension(_input, ctx) {
    return ctx.extension.request("extension/listTasks", {}, { signal: ctx.signal });
  },
});
