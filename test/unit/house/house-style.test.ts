// DESIGN.md, "Style", for src/, runtime/ and shim/, read with the TypeScript parser (parse only, no
// type checker, so the whole tree takes well under a second):
//
// 1. "Exported functions take at most two arguments plus an options object." Checked on exported
//    function declarations, exported consts holding an arrow or function expression, and the
//    constructors, public methods and public arrow properties of exported classes (`this:` is not
//    a parameter). More than three parameters fail. With three, the third must be declared with an
//    object type: a type literal (`opts: { signal: AbortSignal }`), or a name the project declares
//    as an interface or an object type alias (a type literal, a mapped type, an intersection of
//    object types, Pick/Omit/Partial/Required/Readonly of one), optionally `| undefined`. So an
//    options bag, deps or hooks object passes; a string label, a flag, a number, a callback, an
//    array, or a built-in class instance (AbortSignal, Promise, Map) in third place fails: at the
//    call site it is one more unnamed positional argument. Names are matched across the project,
//    not resolved per import: a rule of thumb, not a type check.
// 2. "Comments say why, never which issue": no comment cites an issue ("issue 9", "issues 7 and
//    8"), an issue's tag ("[lsp]", "[git]") or a "phase 2"; references to RFCs, protocol.md and
//    DESIGN.md sections are fine. Only comments are read: the comment ranges the scanner finds
//    around each token of the parsed file, so strings, regex literals and templates cannot fool it.
import { readFile } from "node:fs/promises";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { sourceFiles } from "../../helpers/source-imports.ts";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");

/** The tags the project's issues go by; `[abc]` in a glob or `[flags]` in a usage line is no tag. */
const ISSUE_TAGS = ["lsp", "git", "github", "files", "exec", "extension-ide", "house"];
const CITATION = new RegExp(`\\bissues?\\s+#?\\d+|\\[(?:${ISSUE_TAGS.join("|")})\\]|\\bphase\\s+\\d+\\b`, "i");
/** Generic wrappers that keep an object type an object type. */
const OBJECT_WRAPPERS = new Set(["Pick", "Omit", "Partial", "Required", "Readonly"]);

function parse(name: string, code: string): ts.SourceFile {
  return ts.createSourceFile(name, code, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
}

function hasModifier(node: ts.Node, kind: ts.SyntaxKind): boolean {
  return ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === kind);
}

/** Names the files declare as interfaces or object type aliases (aliases kept by node, resolved later). */
function objectTypeNames(files: readonly ts.SourceFile[]): Set<string> {
  const interfaces = new Set<string>();
  const aliases = new Map<string, ts.TypeNode>();
  for (const file of files) {
    for (const st of file.statements) {
      if (ts.isInterfaceDeclaration(st)) interfaces.add(st.name.text);
      else if (ts.isTypeAliasDeclaration(st)) aliases.set(st.name.text, st.type);
    }
  }
  const known = new Set(interfaces);
  // An alias may name another alias: settle until nothing changes.
  for (let changed = true; changed; ) {
    changed = false;
    for (const [name, type] of aliases) {
      if (!known.has(name) && isObjectType(type, known)) {
        known.add(name);
        changed = true;
      }
    }
  }
  return known;
}

function isObjectType(type: ts.TypeNode, known: ReadonlySet<string>): boolean {
  if (ts.isParenthesizedTypeNode(type)) return isObjectType(type.type, known);
  if (ts.isTypeLiteralNode(type) || ts.isMappedTypeNode(type)) return true;
  if (ts.isIntersectionTypeNode(type)) return type.types.every((t) => isObjectType(t, known));
  if (ts.isUnionTypeNode(type)) {
    const rest = type.types.filter((t) => !isNothing(t));
    return rest.length > 0 && rest.every((t) => isObjectType(t, known));
  }
  if (ts.isTypeReferenceNode(type) && ts.isIdentifier(type.typeName)) {
    const name = type.typeName.text;
    const first = type.typeArguments?.[0];
    if (OBJECT_WRAPPERS.has(name)) return first !== undefined && isObjectType(first, known);
    return known.has(name);
  }
  return false;
}

function isNothing(type: ts.TypeNode): boolean {
  if (type.kind === ts.SyntaxKind.UndefinedKeyword) return true;
  return ts.isLiteralTypeNode(type) && type.literal.kind === ts.SyntaxKind.NullKeyword;
}

interface Callable {
  name: string;
  node: ts.Node;
  params: readonly ts.ParameterDeclaration[];
}

/** What the file exports that can be called: functions, function consts, exported classes' public members. */
function exportedCallables(file: ts.SourceFile): Callable[] {
  const out: Callable[] = [];
  const isPublic = (m: ts.ClassElement) =>
    !hasModifier(m, ts.SyntaxKind.PrivateKeyword) &&
    !hasModifier(m, ts.SyntaxKind.ProtectedKeyword) &&
    !(m.name !== undefined && ts.isPrivateIdentifier(m.name));
  for (const st of file.statements) {
    if (!hasModifier(st, ts.SyntaxKind.ExportKeyword)) continue;
    if (ts.isFunctionDeclaration(st)) out.push({ name: st.name?.text ?? "default", node: st, params: st.parameters });
    else if (ts.isVariableStatement(st)) {
      for (const d of st.declarationList.declarations) {
        const init = d.initializer;
        if (init !== undefined && (ts.isArrowFunction(init) || ts.isFunctionExpression(init)))
          out.push({ name: d.name.getText(file), node: d, params: init.parameters });
      }
    } else if (ts.isClassDeclaration(st)) {
      const cls = st.name?.text ?? "default";
      for (const m of st.members) {
        if (ts.isConstructorDeclaration(m)) out.push({ name: `${cls} constructor`, node: m, params: m.parameters });
        else if (!isPublic(m)) continue;
        else if (ts.isMethodDeclaration(m)) out.push({ name: `${cls}.${m.name.getText(file)}`, node: m, params: m.parameters });
        else if (ts.isPropertyDeclaration(m) && m.initializer !== undefined && ts.isArrowFunction(m.initializer))
          out.push({ name: `${cls}.${m.name.getText(file)}`, node: m, params: m.initializer.parameters });
      }
    }
  }
  return out;
}

/** A line for each exported callable that breaks rule 1: where it is and what is wrong. */
function signatureProblems(file: ts.SourceFile, known: ReadonlySet<string>): string[] {
  const problems: string[] = [];
  for (const { name, node, params } of exportedCallables(file)) {
    const real = params.filter((p) => !(ts.isIdentifier(p.name) && p.name.text === "this"));
    const where = `${file.fileName}:${file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1} ${name}`;
    if (real.length > 3) problems.push(`${where}: ${real.length} parameters; take (a, b, opts)`);
    else if (real.length === 3) {
      const third = real[2] as ts.ParameterDeclaration;
      if (third.dotDotDotToken !== undefined || third.type === undefined || !isObjectType(third.type, known))
        problems.push(`${where}: the third parameter (${third.getText(file)}) is not an options object`);
    }
  }
  return problems;
}

/** Each comment of the file: the comments the scanner finds before and after every token. */
function comments(file: ts.SourceFile): { line: number; text: string }[] {
  const text = file.getFullText();
  const found = new Map<number, { line: number; text: string }>();
  const keep = (ranges: readonly ts.CommentRange[] | undefined) => {
    for (const r of ranges ?? [])
      found.set(r.pos, { line: file.getLineAndCharacterOfPosition(r.pos).line + 1, text: text.slice(r.pos, r.end) });
  };
  const visit = (node: ts.Node): void => {
    // A doc comment's parts are inside a comment: the comment itself is read as the next token's.
    if (node.kind >= ts.SyntaxKind.FirstJSDocNode && node.kind <= ts.SyntaxKind.LastJSDocNode) return;
    const children = node.getChildren(file);
    if (children.length === 0) {
      keep(ts.getLeadingCommentRanges(text, node.getFullStart()));
      keep(ts.getTrailingCommentRanges(text, node.getEnd()));
      return;
    }
    for (const child of children) visit(child);
  };
  visit(file);
  return [...found.values()];
}

function commentProblems(file: ts.SourceFile): string[] {
  return comments(file).flatMap(({ line, text }) => {
    const cited = CITATION.exec(text);
    return cited === null ? [] : [`${file.fileName}:${line}: "${cited[0]}" in a comment: say why instead`];
  });
}

async function projectFiles(): Promise<ts.SourceFile[]> {
  const paths = (await Promise.all(["src", "runtime", "shim"].map((d) => sourceFiles(join(root, d))))).flat();
  return Promise.all(paths.map(async (p) => parse(relative(root, p).split("\\").join("/"), await readFile(p, "utf8"))));
}

describe("house style", async () => {
  const files = await projectFiles();
  const known = objectTypeNames(files);

  it("finds the sources and their object types", () => {
    expect(files.length).toBeGreaterThan(100);
    expect(known.has("SpawnOptions")).toBe(true);
  });

  it("exported functions take at most two arguments plus an options object", () => {
    expect(files.flatMap((f) => signatureProblems(f, known))).toEqual([]);
  });

  it("comments say why, never which issue", () => {
    expect(files.flatMap(commentProblems)).toEqual([]);
  });

  describe("the checks themselves", () => {
    const declared = parse(
      "types.ts",
      [
        "export interface Options { a: number }",
        "export type Deps = { b: string };",
        "export type Both = Options & Deps;",
        "export type Again = Deps;",
        "export type Label = string;",
        "export type Callback = () => void;",
      ].join("\n"),
    );
    const knownHere = objectTypeNames([declared]);
    const signatures = (code: string) => signatureProblems(parse("x.ts", code), knownHere);

    it.each([
      "export function f(a: string, b: string, c: string, d: string): void {}",
      "export function f(a: string, b: string, label: string): void {}",
      "export function f(a: string, b: string, flag = false): void {}",
      "export function f(a: string, b: string, signal: AbortSignal): void {}",
      "export function f(a: string, b: string, done: Callback): void {}",
      "export function f(a: string, b: string, name: Label): void {}",
      "export function f(a: string, b: string, items: Options[]): void {}",
      "export function f(a: string, b: string, ...rest: Options[]): void {}",
      "export function f(a: string, b: string, opts: Options | string): void {}",
      "export const f = (a: number, b: number, c: number) => a + b + c;",
      "export const f = function (a: number, b: number, c: number, d: number) { return a; };",
      "export class C { m(a: number, b: number, c: number): void {} }",
      "export class C { constructor(a: number, b: number, c: number) {} }",
      "export class C { readonly m = (a: number, b: number, c: number): void => {}; }",
    ])("refuses %s", (code) => {
      expect(signatures(code)).toHaveLength(1);
    });

    it.each([
      "export function f(a: string, b: string): void {}",
      "export function f(a: string, b: string, opts: { x?: boolean } = {}): void {}",
      "export function f(a: string, b: string, opts?: Options): void {}",
      "export function f(a: string, b: string, deps: Deps | undefined): void {}",
      "export function f(a: string, b: string, opts: Both): void {}",
      "export function f(a: string, b: string, opts: Again): void {}",
      'export function f(a: string, b: string, opts: Omit<Options, "a"> & { c: number }): void {}',
      "export function f(this: void, a: string, b: string, { x }: { x: number }): void {}",
      "function f(a: string, b: string, c: string, d: string): void {}",
      "export class C { private m(a: number, b: number, c: number): void {} #n(a: number, b: number, c: number): void {} }",
      "class C { m(a: number, b: number, c: number): void {} }",
    ])("lets %s pass", (code) => {
      expect(signatures(code)).toEqual([]);
    });

    const cites = (code: string) => commentProblems(parse("x.ts", code)).length > 0;

    it.each([
      "// The seam of the edit tools (issue 9, item 6).\nexport {};",
      "/** Measured (issue 9). */\nexport const x = 1;",
      "const x = 1; // see issues 7 and 8",
      "// the [lsp] issue adds a backend\nexport {};",
      "// [git]\nexport {};",
      "/* implemented by phase 2 */\nexport {};",
      "function f(): void {\n  // (issue 4)\n}",
      "const t = `${1}//`; // issue 3",
    ])("finds the citation in %j", (code) => {
      expect(cites(code)).toBe(true);
    });

    it.each([
      'const s = "issue 9 [lsp] phase 2";',
      "const r = /issue 9/;",
      "const t = `${1} // issue 9`;",
      '// RFC 9110 8.3.1; protocol.md A2; DESIGN.md, "Style".\nexport {};',
      "// Globs: *, ?, [abc]; usage: claude-ide-bridge [flags]; UTS #18.\nexport {};",
      "const a = [1]; const b = a[0]; // an index, not an issue\nexport {};",
    ])("finds no citation in %j", (code) => {
      expect(cites(code)).toBe(false);
    });
  });
});
