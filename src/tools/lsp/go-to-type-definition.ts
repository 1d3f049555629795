import { locationTool } from "./location-tool.ts";

export default locationTool({
  name: "goToTypeDefinition",
  title: "Go to type definition",
  description:
    "Finds the definition of a value's type (the class or interface of a variable or parameter), from its file, line and name, via the language server.",
  searchHint: "go to type definition what type is this variable class interface of value",
  method: "textDocument/typeDefinition",
  noun: "type definition",
});
