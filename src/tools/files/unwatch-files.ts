// unwatchFiles: stops a watch; changes not yet read are dropped.
import * as v from "valibot";
import { defineTool } from "../platform/define-tool.ts";
import { WATCHES } from "./watch-store.ts";

export default defineTool({
  name: "unwatchFiles",
  title: "Stop watching files",
  description: "Stops a watch started with watchFiles; changes not yet read with getFileChanges are dropped (their count is returned).",
  searchHint: "unwatch stop watching files cancel monitor",
  input: v.strictObject({ watchId: v.pipe(v.string(), v.description("From watchFiles.")) }),
  output: v.object({ watchId: v.string(), droppedChanges: v.number() }),
  annotations: { readOnlyHint: false, destructiveHint: false },
  async handler(input, ctx) {
    const store = ctx.state(WATCHES);
    const watch = store.get(ctx.session, input.watchId);
    store.remove(watch);
    return { watchId: watch.id, droppedChanges: watch.pending.size };
  },
});
