// LSP SymbolKind numbers as the words a model reads ("class", "method").
const NAMES = [
  "file",
  "module",
  "namespace",
  "package",
  "class",
  "method",
  "property",
  "field",
  "constructor",
  "enum",
  "interface",
  "function",
  "variable",
  "constant",
  "string",
  "number",
  "boolean",
  "array",
  "object",
  "key",
  "null",
  "enum member",
  "struct",
  "event",
  "operator",
  "type parameter",
];

export function symbolKindName(kind: number): string {
  return NAMES[kind - 1] ?? "symbol";
}

export const SYMBOL_KIND_NAMES: readonly string[] = NAMES;
