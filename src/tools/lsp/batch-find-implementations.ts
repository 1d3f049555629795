import { batchTool } from "./batch-tool.ts";
import findImplementations from "./find-implementations.ts";

export default batchTool({
  name: "batchFindImplementations",
  title: "Implementations of several symbols",
  description:
    "Finds the implementations of up to 10 interfaces or abstract methods at once, each by file, line and name, asked concurrently.",
  searchHint: "batch find implementations many interfaces at once implementers of several symbols",
  single: findImplementations,
});
