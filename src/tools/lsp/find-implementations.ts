import { locationTool } from "./location-tool.ts";

export default locationTool({
  name: "findImplementations",
  title: "Find implementations",
  description:
    "Finds the implementations of an interface, abstract method or base class across the project, waiting for the language server to load it; says when partial.",
  searchHint: "find implementations implementers subclasses who implements interface abstract method overrides",
  method: "textDocument/implementation",
  noun: "implementation",
  wholeProject: true,
});
