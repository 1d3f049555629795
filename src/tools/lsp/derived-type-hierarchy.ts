// A type hierarchy for servers without typeHierarchy (TypeScript's servers, pyright, gopls 0.5):
// supertypes are the definitions of the names in the declaration's extends/implements clause (or
// a Python class's bases); subtypes are the server's implementations of the type.
import type { Location, LocationLink, Position } from "vscode-languageserver-protocol";
import type { LspDocument } from "../../lsp/lsp-service.ts";
import { placesOf, type Place } from "./locations.ts";

/** Lines of a declaration read for its heritage clause (it may wrap). */
const HEADER_LINES = 4;

interface DerivedHierarchy {
  supertypes: { name: string; place: Place | undefined }[];
  subtypes: Place[];
  subtypesComplete: boolean;
  why?: string;
}

export async function derivedHierarchy(
  doc: LspDocument,
  declaration: Place,
  opts: { supertypes: boolean; subtypes: boolean },
): Promise<DerivedHierarchy> {
  const result: DerivedHierarchy = { supertypes: [], subtypes: [], subtypesComplete: true };
  if (opts.supertypes && declaration.uri === doc.uri) {
    for (const base of heritageNames(doc.lines, declaration.range.start.line)) {
      const answer = await doc
        .request<Location | Location[] | LocationLink[] | null>("textDocument/definition", {
          textDocument: { uri: doc.uri },
          position: base.position,
        })
        .catch(() => null);
      result.supertypes.push({ name: base.name, place: placesOf(answer)[0] });
    }
  }
  if (opts.subtypes && doc.server.supports("textDocument/implementation")) {
    const answer = await doc.wholeProject<Location[] | LocationLink[] | null>("textDocument/implementation", {
      textDocument: { uri: declaration.uri },
      position: declaration.range.start,
    });
    const self = `${declaration.uri}:${declaration.range.start.line}`;
    result.subtypes = placesOf(answer.value).filter((p) => `${p.uri}:${p.range.start.line}` !== self);
    result.subtypesComplete = answer.complete;
    if (answer.why !== undefined) result.why = answer.why;
  }
  return result;
}

const ACCESS = ["public", "protected", "private", "virtual", "metaclass", "object"];

/** The base names after `extends`/`implements` (TS, Java-likes), in `class X(A, B):` (Python), or after `struct X : public A` (C++). */
export function heritageNames(lines: readonly string[], startLine: number): { name: string; position: Position }[] {
  const found: { name: string; position: Position }[] = [];
  for (let l = startLine; l < Math.min(lines.length, startLine + HEADER_LINES); l++) {
    const text = lines[l] ?? "";
    const header = text.split("{")[0] ?? "";
    for (const clause of clausesOf(header, l === startLine)) {
      let depth = 0;
      for (const m of clause.body.matchAll(/[<>]|[A-Za-z_$][\w$]*(?:(?:\.|::)[A-Za-z_$][\w$]*)*/g)) {
        if (m[0] === "<") depth++;
        else if (m[0] === ">") depth--;
        else if (depth === 0 && !ACCESS.includes(m[0]) && !KEYWORDS.has(m[0])) {
          const name = m[0].split(/\.|::/).pop() ?? m[0];
          found.push({ name, position: { line: l, character: clause.at + (m.index ?? 0) + m[0].length - name.length } });
        }
      }
    }
    if (text.includes("{") || text.trimEnd().endsWith(":")) break;
  }
  return found;
}

const KEYWORDS = new Set(["extends", "implements"]);

/** The parts of a declaration line that list base types, with where each starts. */
function clausesOf(header: string, first: boolean): { body: string; at: number }[] {
  const python = first ? /^\s*class\s+\w+\s*\(([^)]*)\)/.exec(header) : null;
  if (python) return [{ body: python[1] ?? "", at: header.indexOf("(") + 1 }];
  const cpp = first ? /^\s*(?:class|struct)\s+\w+(?:\s+final)?\s*:(?!:)/.exec(header) : null;
  if (cpp) return [{ body: header.slice(cpp[0].length), at: cpp[0].length }];
  // From the first extends/implements on: keywords are skipped, type arguments too.
  const at = header.search(/\b(?:extends|implements)\b/);
  return at < 0 ? [] : [{ body: header.slice(at), at }];
}
