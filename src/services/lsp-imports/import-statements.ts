// The import statements of a source file, found lexically per language: each module specifier
// with the position of its text (where the server is asked what file it names), and the names the
// statement brings in with theirs (what getImportedSignatures hovers). Comments are not parsed
// away: a commented-out import is still found, and resolves or is listed unresolved like any other.

export interface ImportedName {
  /** The name as the file uses it (after `as`). */
  local: string;
  /** 0-based position of the name in the statement. */
  line: number;
  character: number;
}

export interface ImportStatement {
  specifier: string;
  /** 0-based position of the specifier's first character. */
  line: number;
  character: number;
  names: ImportedName[];
}

const JS_TS = new Set(["typescript", "typescriptreact", "javascript", "javascriptreact"]);

export function importStatements(lines: readonly string[], languageId: string): ImportStatement[] {
  if (JS_TS.has(languageId)) return jsImports(lines);
  if (languageId === "python") return pythonImports(lines);
  if (languageId === "go") return goImports(lines);
  if (languageId === "c" || languageId === "cpp" || languageId === "objective-c") return includes(lines);
  return [];
}

/** Whether the language's imports are recognised here. */
export function importsKnown(languageId: string): boolean {
  return JS_TS.has(languageId) || ["python", "go", "c", "cpp", "objective-c"].includes(languageId);
}

function jsImports(lines: readonly string[]): ImportStatement[] {
  const text = lines.join("\n");
  const starts = lineStarts(lines);
  const out: ImportStatement[] = [];
  const pattern =
    /(?:^|[;\n}])\s*(?:import|export)\s+(?:type\s+)?([^'";]*?)\s*from\s*(['"])([^'"\n]+)\2|(?:^|[;\n])\s*import\s*(['"])([^'"\n]+)\4|\b(?:require|import)\s*\(\s*(['"])([^'"\n]+)\6\s*\)/g;
  for (const m of text.matchAll(pattern)) {
    const specifier = m[3] ?? m[5] ?? m[7];
    if (specifier === undefined || m.index === undefined) continue;
    const specAt = m.index + m[0].lastIndexOf(specifier);
    const names: ImportedName[] = [];
    const clause = m[1];
    if (clause !== undefined && clause !== "" && !clause.startsWith("*")) {
      const clauseAt = m.index + m[0].indexOf(clause);
      for (const name of clause.matchAll(/(?:\b(?:type\s+)?([\w$]+)(?:\s+as\s+([\w$]+))?)/g)) {
        const local = name[2] ?? name[1];
        if (local === undefined || name.index === undefined || local === "type" || local === "as") continue;
        const offset = clauseAt + name.index + name[0].lastIndexOf(local);
        names.push({ local, ...positionOf(starts, offset) });
      }
    } else if (clause?.startsWith("*")) {
      const star = /\*\s+as\s+([\w$]+)/.exec(clause);
      if (star?.[1] !== undefined)
        names.push({ local: star[1], ...positionOf(starts, m.index + m[0].indexOf(clause) + star[0].lastIndexOf(star[1])) });
    }
    out.push({ specifier, ...positionOf(starts, specAt), names });
  }
  return out;
}

function pythonImports(lines: readonly string[]): ImportStatement[] {
  const out: ImportStatement[] = [];
  lines.forEach((text, line) => {
    const from = /^\s*from\s+([.\w]+)\s+import\s+\(?([^#)]*)/.exec(text);
    if (from?.[1] !== undefined) {
      const names: ImportedName[] = [];
      const list = from[2] ?? "";
      const listAt = text.indexOf(list, text.indexOf(" import ") + 1);
      for (const name of list.matchAll(/\b(\w+)(?:\s+as\s+(\w+))?/g)) {
        const local = name[2] ?? name[1];
        if (local === undefined || name.index === undefined) continue;
        names.push({ local, line, character: listAt + name.index + name[0].lastIndexOf(local) });
      }
      out.push({ specifier: from[1], line, character: text.indexOf(from[1]) + Math.max(0, from[1].lastIndexOf(".") + 1), names });
      return;
    }
    const plain = /^\s*import\s+([\w.]+(?:\s+as\s+\w+)?(?:\s*,\s*[\w.]+(?:\s+as\s+\w+)?)*)/.exec(text);
    if (plain?.[1] === undefined) return;
    for (const part of plain[1].matchAll(/([\w.]+)(?:\s+as\s+(\w+))?/g)) {
      const module = part[1];
      if (module === undefined || part.index === undefined) continue;
      const at = text.indexOf(plain[1]) + part.index;
      out.push({ specifier: module, line, character: at + module.lastIndexOf(".") + 1, names: [] });
    }
  });
  return out;
}

function goImports(lines: readonly string[]): ImportStatement[] {
  const out: ImportStatement[] = [];
  let inBlock = false;
  lines.forEach((text, line) => {
    if (/^\s*import\s*\(/.test(text)) {
      inBlock = true;
      return;
    }
    if (inBlock && /^\s*\)/.test(text)) {
      inBlock = false;
      return;
    }
    const m = inBlock ? /^\s*(?:[\w.]+\s+)?"([^"]+)"/.exec(text) : /^\s*import\s+(?:[\w.]+\s+)?"([^"]+)"/.exec(text);
    if (m?.[1] !== undefined) out.push({ specifier: m[1], line, character: text.indexOf(`"${m[1]}"`) + 1, names: [] });
  });
  return out;
}

function includes(lines: readonly string[]): ImportStatement[] {
  const out: ImportStatement[] = [];
  lines.forEach((text, line) => {
    const m = /^\s*#\s*include\s*([<"])([^>"]+)[>"]/.exec(text);
    if (m?.[2] !== undefined) out.push({ specifier: m[2], line, character: text.indexOf(m[2]), names: [] });
  });
  return out;
}

function lineStarts(lines: readonly string[]): number[] {
  const starts: number[] = [];
  let offset = 0;
  for (const line of lines) {
    starts.push(offset);
    offset += line.length + 1;
  }
  return starts;
}

function positionOf(starts: readonly number[], offset: number): { line: number; character: number } {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((starts[mid] ?? 0) <= offset) lo = mid;
    else hi = mid - 1;
  }
  return { line: lo, character: offset - (starts[lo] ?? 0) };
}
