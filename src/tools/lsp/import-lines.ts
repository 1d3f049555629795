// Which lines of a source file are import statements, so an outline can leave out the names a file
// imports (typescript-language-server lists each as a variable; pyright as a module): they are the
// file's dependencies, not its contents. Line-based and language-agnostic on purpose: a statement
// that opens a bracket runs to the line that closes it (`import {\n a,\n b\n} from "x"`).

/** The first line of an import statement in TS/JS, Python, Rust, Go, C/C++, C#, Java/Kotlin. */
const IMPORT_START =
  /^\s*(?:import\b|from\s+[\w.]+\s+import\b|export\s+(?:type\s+)?(?:\*|\{[^}]*\}?)\s*(?:as\s+\w+\s+)?from\b|(?:pub\s+)?use\s+[\w:{]|using\s+[\w.]+\s*;|#\s*include\b|(?:const|let|var)\s+[\w{}\s,:]+=\s*require\()/;

/** The 0-based numbers of the lines that belong to import statements. */
export function importLines(lines: readonly string[]): Set<number> {
  const out = new Set<number>();
  for (let i = 0; i < lines.length; i++) {
    if (!IMPORT_START.test(lines[i] ?? "")) continue;
    let depth = 0;
    let j = i;
    for (; j < lines.length; j++) {
      out.add(j);
      for (const ch of lines[j] ?? "") {
        if (ch === "{" || ch === "(") depth++;
        else if (ch === "}" || ch === ")") depth--;
      }
      if (depth <= 0) break;
    }
    i = j;
  }
  return out;
}
