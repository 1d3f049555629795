// The imports of a source file, read with the TypeScript parser (not regexes, so comments, strings
// and regex literals cannot fool it), for the house-rule tests: the one rule (src/ never knows its
// runtime) and the layering of src/, runtime/ and shim/.
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import ts from "typescript";

export interface Specifier {
  spec: string;
  typeOnly: boolean;
}

export interface Findings {
  specifiers: Specifier[];
  /** Uses of process/Deno/Bun as an object: `process.env`, `Deno["x"]`, `globalThis.Bun`. */
  runtimeGlobals: string[];
  /** Identifiers called as functions, for rules about who may call what. */
  calls: string[];
}

const RUNTIME_GLOBALS = new Set(["process", "Deno", "Bun"]);
const GLOBAL_OBJECTS = new Set(["globalThis", "self", "window", "global"]);

/** Every .ts file under `dir` but tests, as paths joined to `dir`. */
export async function sourceFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await sourceFiles(path)));
    else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts")) out.push(path);
  }
  return out;
}

export function scan(code: string): Findings {
  const file = ts.createSourceFile("x.ts", code, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: Findings = { specifiers: [], runtimeGlobals: [], calls: [] };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const named = clause?.namedBindings;
      const allNamedTypes =
        clause !== undefined &&
        clause.name === undefined &&
        named !== undefined &&
        ts.isNamedImports(named) &&
        named.elements.length > 0 &&
        named.elements.every((e) => e.isTypeOnly);
      found.specifiers.push({ spec: node.moduleSpecifier.text, typeOnly: clause?.isTypeOnly === true || allNamedTypes });
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier !== undefined && ts.isStringLiteral(node.moduleSpecifier)) {
      found.specifiers.push({ spec: node.moduleSpecifier.text, typeOnly: node.isTypeOnly });
    } else if (ts.isImportTypeNode(node)) {
      const arg = node.argument;
      if (ts.isLiteralTypeNode(arg) && ts.isStringLiteral(arg.literal)) found.specifiers.push({ spec: arg.literal.text, typeOnly: true });
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const arg = node.arguments[0];
      // A computed dynamic import cannot be checked, so it is not allowed.
      const spec = arg !== undefined && ts.isStringLiteralLike(arg) ? arg.text : `<computed: ${arg?.getText() ?? ""}>`;
      found.specifiers.push({ spec, typeOnly: false });
    } else if (ts.isCallExpression(node) && ts.isIdentifier(node.expression)) {
      found.calls.push(node.expression.text);
    } else if (ts.isPropertyAccessExpression(node) || ts.isElementAccessExpression(node)) {
      const object = node.expression;
      if (ts.isIdentifier(object) && RUNTIME_GLOBALS.has(object.text)) found.runtimeGlobals.push(node.getText());
      if (
        ts.isPropertyAccessExpression(node) &&
        ts.isIdentifier(object) &&
        GLOBAL_OBJECTS.has(object.text) &&
        RUNTIME_GLOBALS.has(node.name.text)
      ) {
        found.runtimeGlobals.push(node.getText());
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}
