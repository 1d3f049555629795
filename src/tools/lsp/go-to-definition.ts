import { locationTool } from "./location-tool.ts";

export default locationTool({
  name: "goToDefinition",
  title: "Go to definition",
  description:
    "Finds where a symbol is defined, from its file, line and name (column optional), via the language server. Returns file:line:col with the source line.",
  searchHint: "go to definition jump to source where is defined declaration of function class variable",
  method: "textDocument/definition",
  noun: "definition",
  alwaysLoad: true,
});
