// The shim and the bridge must agree on the wire (headers, the attach notice, the goodbye reason,
// the 4 MB limit, close codes), so src/wire.ts defines them once. This finds copies of those
// values written out elsewhere in src/, runtime/ and shim/, with the TypeScript parser so
// comments do not count. PENDING lists the copies known today, in files being changed on other
// branches: switch one of them to src/wire.ts and this fails until its entry goes too.
import { readFile, readdir } from "node:fs/promises";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import * as wire from "../../../src/wire.ts";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");

const PENDING: Record<string, string[]> = {};
/** The same number for other purposes: the replay buffer of a session, the rest of a file worth counting. */
const NOT_WIRE = new Set(["src/transports/http/http-session.ts", "src/workspace/read-lines.ts"]);

const WIRE_STRINGS = new Set<string>([
  wire.IDE_AUTH_HEADER,
  wire.SESSION_ID_HEADER,
  wire.ATTACH_NOTICE_HEADER,
  wire.ATTACH_NOTICE_METHOD,
  wire.CLIENT_DONE_REASON,
]);
const CLOSE_CODES = new Set<number>(Object.values(wire.CloseCode));
const CANDIDATES = [...WIRE_STRINGS, "1024", ...[...CLOSE_CODES].map(String)];

async function sources(dir: string): Promise<string[]> {
  const names = await readdir(dir, { recursive: true });
  return names.filter((name) => name.endsWith(".ts") && !name.endsWith(".test.ts")).map((name) => join(dir, name));
}

function isCloseCode(node: ts.Node): node is ts.NumericLiteral {
  return ts.isNumericLiteral(node) && CLOSE_CODES.has(Number(node.text));
}

/** The wire values `code` writes out itself, in source order. */
function copies(code: string): string[] {
  const file = ts.createSourceFile("x.ts", code, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) && WIRE_STRINGS.has(node.text)) {
      found.push(JSON.stringify(node.text));
    } else if (ts.isBinaryExpression(node) && node.getText().replace(/\s/g, "") === "4*1024*1024") {
      found.push("4 MB");
    } else if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && node.expression.name.text === "close") {
      const first = node.arguments[0];
      if (first !== undefined && isCloseCode(first)) found.push(`close(${first.text})`);
    } else if (
      ts.isBinaryExpression(node) &&
      [ts.SyntaxKind.EqualsEqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsEqualsToken].includes(node.operatorToken.kind)
    ) {
      const code = [node.left, node.right].find(isCloseCode);
      const other = node.left === code ? node.right : node.left;
      if (code && ts.isPropertyAccessExpression(other) && other.name.text === "code")
        found.push(`code ${node.operatorToken.getText()} ${code.text}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

describe("wire constants", () => {
  // Parses every source file with the TypeScript parser: seconds, more on a loaded machine.
  it("are written out nowhere but src/wire.ts, except the copies still pending", { timeout: 30_000 }, async () => {
    const files = (await Promise.all(["src", "runtime", "shim"].map((d) => sources(join(root, d))))).flat();
    const found: Record<string, string[]> = {};
    for (const path of files) {
      const name = relative(root, path).split("\\").join("/");
      if (name === "src/wire.ts" || NOT_WIRE.has(name)) continue;
      const text = await readFile(path, "utf8");
      // Parsing every file takes seconds on a busy machine; only one that names a candidate can hold a copy.
      if (!CANDIDATES.some((c) => text.includes(c))) continue;
      const hits = copies(text);
      if (hits.length > 0) found[name] = hits;
    }
    expect(found).toEqual(PENDING);
  });

  it("the scan finds each kind of copy, and not mentions in comments", () => {
    const code = [
      '// "x-claude-code-session-id" in a comment, and ws.close(1000) too',
      'const h = "x-claude-code-session-id";',
      "const limit = 4 * 1024 * 1024;",
      "ws.close(1011, 'internal error');",
      "if (event.code !== 4000) return;",
      "ws.close(3000); const other = 1000;",
    ].join("\n");
    expect(copies(code)).toEqual(['"x-claude-code-session-id"', "4 MB", "close(1011)", "code !== 4000"]);
  });
});
