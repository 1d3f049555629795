// generateTests: a first test file for a source file's exports, in the project's own framework and
// style (services/analysis/test-framework.ts), shown as the diff that would create it and written
// only with dryRun: false (never over an existing file). Each export gets a test that passes now
// and a pending one naming its signature; the scaffold compiles (or collects) as written.
import * as v from "valibot";
import type { ToolContext } from "../../capabilities/context.ts";
import { ToolError } from "../../errors.ts";
import { editReport } from "../../services/documents/edit-report.ts";
import { topLevelSymbols, type TopSymbol } from "../../services/analysis/exported-symbols.ts";
import { sourceFilesUnder } from "../../services/analysis/source-files.ts";
import { symbolDocs } from "../../services/analysis/symbol-docs.ts";
import { detectTestStyle } from "../../services/analysis/test-framework.ts";
import { isTestFile } from "../../services/conventions/test-files.ts";
import { scaffold, type Subject } from "../../services/analysis/test-scaffold.ts";
import { openDocument } from "../../services/language/open-document.ts";
import type { LspDocument } from "../../lsp/lsp-service.ts";
import { defineTool } from "../platform/define-tool.ts";

/** SymbolKinds that hold a value a test can name. */
const FUNCTIONS = new Set([5, 6, 9, 12]);
const TYPES = new Set([10, 11, 23, 26]);

export default defineTool({
  name: "generateTests",
  title: "Generate a test scaffold",
  description:
    "Generates a test file for a source file's exports in the project's own test framework and style (vitest, jest, mocha, node:test, pytest, go test); previews by default.",
  searchHint: "generate tests scaffold unit test skeleton write tests for file vitest jest pytest go test stub",
  input: v.strictObject({
    file: v.pipe(v.string(), v.minLength(1), v.description("The source file to test.")),
    testFile: v.optional(v.pipe(v.string(), v.minLength(1), v.description("Where to write it (default: where the project's tests live)."))),
    dryRun: v.optional(v.pipe(v.boolean(), v.description("Only show the file (default true); false writes it.")), true),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false },
  timeoutMs: 120_000,
  async handler(input, ctx) {
    const source = ctx.fs.relative(await ctx.fs.resolve(input.file));
    if (isTestFile(source))
      throw new ToolError("invalid_arguments", `${source} is a test itself`, { suggestion: "Pass the source file it tests." });
    const tests = (await sourceFilesUnder(ctx, ".", { max: 5000 })).files.filter(isTestFile);
    const style = await detectTestStyle(ctx, source, { tests });
    if (style === undefined)
      throw new ToolError("not_supported", `No test framework is known for ${source}'s language`, {
        suggestion: "Tests are generated for TypeScript/JavaScript (vitest, jest, mocha, node:test), Python (pytest) and Go (go test).",
      });
    const doc = await openDocument(source, ctx, { method: "textDocument/documentSymbol" });
    const exported = (await topLevelSymbols(doc)).filter((s) => s.exported);
    const subjects: Subject[] = [];
    const types: string[] = [];
    for (const symbol of exported) {
      const kind = subjectKind(doc, symbol);
      if (kind === undefined) types.push(symbol.name);
      else subjects.push({ name: symbol.name, kind, signature: (await symbolDocs(doc, symbol.at)).signature });
    }
    if (subjects.length === 0)
      throw new ToolError(
        "invalid_arguments",
        `${source} exports nothing a test can call${types.length > 0 ? ` (only types: ${types.join(", ")})` : ""}`,
        {
          suggestion: "Pass the file that holds the functions or classes.",
        },
      );
    const target = input.testFile ?? style.testFile;
    if ((await ctx.fs.entryStat(target).catch(() => undefined)) !== undefined)
      throw new ToolError("file_exists", `${target} already exists`, {
        suggestion: "Pass testFile to write the scaffold elsewhere, or add the tests to it with editText.",
      });
    const content = scaffold({ ...style, testFile: target }, subjects, {
      source,
      goPackage: /^package\s+(\w+)/m.exec(doc.text)?.[1] ?? "main",
      ...(source.endsWith(".py") ? { pythonModule: await pythonModule(ctx, source) } : {}),
    });
    const data = new TextEncoder().encode(content);
    if (!input.dryRun) {
      await ctx.fs.makeDirectory(target.includes("/") ? target.slice(0, target.lastIndexOf("/")) : ".", { parents: true });
      const written = await ctx.fs.writeFile(target, data, { createOnly: true });
      await ctx.lsp.filesChanged([{ path: written, type: 1 }]);
    }
    const head = [
      `Framework: ${style.framework} (${style.because})${style.example === undefined ? "" : `; style of ${style.example}`}.`,
      `${subjects.length} export(s) tested: ${subjects.map((s) => s.name).join(", ")}${types.length > 0 ? `; types left out: ${types.join(", ")}` : ""}.`,
    ];
    const diff = await editReport([{ label: target, before: undefined, after: content, data }], { written: !input.dryRun });
    return `${head.join("\n")}\n${diff}${input.dryRun ? "\nA preview: nothing was written. Call again with dryRun: false to create it." : ""}`;
  },
});

/** The dotted module a Python file is imported as: from the folder above its outermost package (the one with no __init__.py). */
async function pythonModule(ctx: ToolContext, source: string): Promise<string> {
  const dirs = source.split("/").slice(0, -1);
  let top = dirs.length;
  while (top > 0 && (await ctx.fs.entryStat(`${dirs.slice(0, top).join("/")}/__init__.py`).catch(() => undefined))?.isFile) top -= 1;
  const stem = (source.split("/").pop() ?? source).replace(/\.py$/, "");
  return [...dirs.slice(top), ...(stem === "__init__" ? [] : [stem])].join(".");
}

/** What a test can do with an export: call or construct it, read it, or (a Go type) name it; undefined for a TypeScript type. */
function subjectKind(doc: LspDocument, symbol: TopSymbol): Subject["kind"] | undefined {
  const line = doc.lines[symbol.range.start.line] ?? "";
  if (
    /^\s*export\s+(?:declare\s+)?(?:type|interface)\b/.test(line) ||
    (TYPES.has(symbol.kind) && doc.languageId !== "go" && doc.languageId !== "python")
  )
    return undefined;
  if (doc.languageId === "go" && (TYPES.has(symbol.kind) || /^\s*type\b/.test(line))) return "type";
  if (doc.languageId === "go" && symbol.kind === 6) return undefined;
  return FUNCTIONS.has(symbol.kind) ? "function" : "value";
}
