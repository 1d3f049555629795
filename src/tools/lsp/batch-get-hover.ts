import { batchTool } from "./batch-tool.ts";
import getHover from "./get-hover.ts";

export default batchTool({
  name: "batchGetHover",
  title: "Hover at several positions",
  description: "Shows the hover (type, signature, docs) of up to 10 symbols at once, each by file, line and name, asked concurrently.",
  searchHint: "batch hover many symbols at once types signatures docs of several positions",
  single: getHover,
});
