import { locationTool } from "./location-tool.ts";

export default locationTool({
  name: "goToDeclaration",
  title: "Go to declaration",
  description:
    "Finds where a symbol is declared (a C/C++ prototype, a Python stub, an import), from its file, line and name, via the language server.",
  searchHint: "go to declaration header prototype forward declaration extern import",
  method: "textDocument/declaration",
  noun: "declaration",
});
