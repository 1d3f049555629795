// stopWorkspace: stops a child bridge this session started with spawnWorkspace, and waits until it
// exited (its lock file removed, its language servers ended with its process group).
import * as v from "valibot";
import { ToolError } from "../../errors.ts";
import { defineTool } from "../platform/define-tool.ts";
import { childBridgesOf } from "./spawn-workspace.ts";

export default defineTool({
  name: "stopWorkspace",
  title: "Stop a spawned workspace bridge",
  description: "Stops a child bridge this session started with spawnWorkspace, by its folder, and waits until it exited.",
  searchHint: "stop close spawned workspace child bridge shut down",
  input: v.strictObject({
    folder: v.pipe(v.string(), v.minLength(1), v.description("The folder the child serves, as spawnWorkspace answered.")),
  }),
  output: v.object({ stopped: v.string(), running: v.array(v.string()) }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async handler(input, ctx) {
    const children = childBridgesOf(ctx);
    if (!(await children.stop(ctx.session, input.folder))) {
      const running = children.of(ctx.session).map((c) => c.folder);
      throw new ToolError("invalid_arguments", `This session runs no child bridge on ${input.folder}`, {
        suggestion: running.length === 0 ? "Nothing to stop." : `It runs them on ${running.join(", ")}.`,
      });
    }
    return { stopped: input.folder, running: children.of(ctx.session).map((c) => c.folder) };
  },
});
