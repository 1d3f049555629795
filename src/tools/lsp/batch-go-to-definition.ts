import { batchTool } from "./batch-tool.ts";
import goToDefinition from "./go-to-definition.ts";

export default batchTool({
  name: "batchGoToDefinition",
  title: "Definitions of several symbols",
  description: "Finds where up to 10 symbols are defined at once, each by file, line and name, asked concurrently.",
  searchHint: "batch go to definition many symbols at once where are these defined several positions",
  single: goToDefinition,
});
