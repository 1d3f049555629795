// detectUnusedCode: declarations nothing uses (exports no other file imports, functions never
// called) and source files nothing imports, found with the language server's references, each
// "unused" checked against a text search of its name (symbol-usage.ts). Never reported: what an
// entry point declares (package.json main/exports/bin, a main function, a __main__ guard), tests,
// names a runtime or test runner calls by convention, and files a dynamic import may load; the
// answer says what it assumed.
import * as v from "valibot";
import type { ToolContext } from "../../capabilities/context.ts";
import { errorMessage } from "../../errors.ts";
import { collectDynamicLoads, emptyLoads, loadedDynamically, type DynamicLoads } from "../../services/analysis/dynamic-imports.ts";
import {
  conventionallyCalled,
  declaredEntryPoints,
  isEntryPoint,
  startsAProgram,
  type EntryPoints,
} from "../../services/analysis/entry-points.ts";
import { topLevelSymbols } from "../../services/analysis/exported-symbols.ts";
import { sourceFilesUnder } from "../../services/analysis/source-files.ts";
import { symbolUsage } from "../../services/analysis/symbol-usage.ts";
import { isTestFile } from "../../services/conventions/test-files.ts";
import { openDocument } from "../../services/language/open-document.ts";
import { importGraph } from "../../services/lsp-imports/import-graph.ts";
import { defineTool } from "../platform/define-tool.ts";

const MAX_TEXT_BYTES = 1024 * 1024;
/** Past this the files not reached are named, not waited for. */
const BUDGET_MS = 150_000;
/** Kinds a file declares that are not code to remove: modules, namespaces, packages. */
const NOT_DECLARATIONS = new Set([1, 2, 3, 4]);
/** Languages whose files are imported one by one (Go imports packages; C compiles what the build names). */
const FILE_IMPORTS = /^(?:typescript|javascript)(?:react)?$|^python$/;

interface Finding {
  where: string;
  what: string;
  partial?: string;
}

export default defineTool({
  name: "detectUnusedCode",
  title: "Detect unused code",
  description:
    "Finds unused exports, functions and files (dead code) with the language server's references, never flagging entry points, tests or dynamically imported files; says what it assumed.",
  searchHint: "unused code dead code unused exports unreferenced functions orphan files never imported cleanup",
  input: v.strictObject({
    path: v.optional(v.pipe(v.string(), v.minLength(1), v.description("A file or folder (default: the workspace).")), "."),
    maxFiles: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(500), v.description("Files examined (default 100).")),
      100,
    ),
  }),
  annotations: { readOnlyHint: true },
  timeoutMs: 240_000,
  largeResult: true,
  async handler(input, ctx) {
    const started = Date.now();
    const scope = await sourceFilesUnder(ctx, input.path, { max: input.maxFiles });
    const whole = await sourceFilesUnder(ctx, ".", { max: 5000 });
    const entries = await declaredEntryPoints(ctx);
    const loads = emptyLoads();
    const texts = new Map<string, string>();
    for (const file of whole.files) {
      const text = await ctx.fs.readText(file, { maxBytes: MAX_TEXT_BYTES }).catch(() => undefined);
      if (text === undefined) continue;
      collectDynamicLoads(loads, { file, text });
      if (scope.files.includes(file)) texts.set(file, text);
    }
    const kept = new Map<string, string>();
    const examined = scope.files.filter((file) => {
      const why = keptBecause(file, texts.get(file) ?? "", entries, loads);
      if (why !== undefined) kept.set(file, why);
      return why === undefined;
    });
    const symbols: Finding[] = [];
    const localOnly: Finding[] = [];
    const notReached: string[] = [];
    const failed: string[] = [];
    for (const file of examined) {
      if (ctx.signal.aborted || Date.now() - started > BUDGET_MS) {
        notReached.push(file);
        continue;
      }
      ctx.progress(examined.indexOf(file), { total: examined.length, message: file });
      try {
        const doc = await openDocument(file, ctx, { method: "textDocument/references" });
        for (const symbol of await topLevelSymbols(doc)) {
          if (NOT_DECLARATIONS.has(symbol.kind) || conventionallyCalled(symbol.name, doc.languageId)) continue;
          const usage = await symbolUsage(ctx, doc, symbol);
          if (usage.elsewhere.size > 0) continue;
          const where = `${file}:${symbol.at.line + 1}`;
          const partial = usage.complete ? {} : { partial: usage.why ?? "not every file could be checked" };
          if (usage.inOwnFile === 0)
            symbols.push({ where, what: `${symbol.name}: ${symbol.exported ? "exported, used nowhere" : "used nowhere"}`, ...partial });
          else if (symbol.exported)
            localOnly.push({
              where,
              what: `${symbol.name}: used only in its own file (${usage.inOwnFile}x); the export can go`,
              ...partial,
            });
        }
      } catch (err) {
        failed.push(`${file} (${errorMessage(err)})`);
      }
    }
    const files = await unusedFiles(ctx, examined, whole.files, texts);
    return report({ symbols, localOnly, files, kept, entries, loads, notReached, failed, examined: examined.length, left: scope.left });
  },
});

function keptBecause(file: string, text: string, entries: EntryPoints, loads: DynamicLoads): string | undefined {
  if (isTestFile(file)) return "a test";
  return isEntryPoint(entries, file) ?? startsAProgram(file, text) ?? loadedDynamically(loads, file);
}

/** Files of languages imported file by file that no workspace file imports (resolved by the server). */
async function unusedFiles(
  ctx: ToolContext,
  examined: readonly string[],
  all: readonly string[],
  texts: Map<string, string>,
): Promise<Finding[] | string> {
  const candidates = examined.filter((f) => FILE_IMPORTS.test(ctx.lsp.languageOf(f) ?? "") && !/(?:^|\/)__init__\.py$/.test(f));
  if (candidates.length === 0) return [];
  const importers = all.filter((f) => FILE_IMPORTS.test(ctx.lsp.languageOf(f) ?? ""));
  const graph = await importGraph(ctx, importers, { maxFiles: 400, depth: 1 });
  const missed = importers.filter((f) => !graph.edges.has(f));
  if (missed.length > 0) return `not checked: the imports of ${missed.length} file(s) could not be read (${missed.slice(0, 5).join(", ")})`;
  const imported = new Set<string>();
  for (const edges of graph.edges.values()) for (const e of edges) if (e.to !== undefined) imported.add(e.to);
  return candidates.filter((f) => !imported.has(f) && texts.has(f)).map((f) => ({ where: f, what: "no workspace file imports it" }));
}

function report(r: {
  symbols: Finding[];
  localOnly: Finding[];
  files: Finding[] | string;
  kept: Map<string, string>;
  entries: EntryPoints;
  loads: DynamicLoads;
  notReached: string[];
  failed: string[];
  examined: number;
  left: number;
}): string {
  const line = (f: Finding) => `  ${f.where}  ${f.what}${f.partial === undefined ? "" : ` (unsure: ${f.partial})`}`;
  const out = [`Examined ${r.examined} file(s)${r.left > 0 ? ` (${r.left} more not examined; raise maxFiles or pass a folder)` : ""}.`];
  out.push(
    r.symbols.length === 0 ? "Unused declarations: none found." : `Unused declarations (${r.symbols.length}):`,
    ...r.symbols.map(line),
  );
  if (r.localOnly.length > 0) out.push(`Exported but used only inside their file (${r.localOnly.length}):`, ...r.localOnly.map(line));
  if (typeof r.files === "string") out.push(`Unused files: ${r.files}.`);
  else out.push(r.files.length === 0 ? "Unused files: none found." : `Unused files (${r.files.length}):`, ...r.files.map(line));
  const tests = [...r.kept.values()].filter((why) => why === "a test").length;
  const assumed = [
    ...[...r.kept].filter(([, why]) => why !== "a test").map(([file, why]) => `${file} was not examined: ${why}`),
    ...(tests > 0 ? [`${tests} test file(s) were not examined: tests are run, not imported`] : []),
    ...r.entries.assumed,
    "names a runtime or test runner calls by convention (main, init, Test*, test_*, default exports) are taken as used",
    "Go and C files are never called unused files (Go imports packages; C compiles what its build names)",
  ];
  if (r.loads.computedIn.size > 0)
    assumed.push(`folders with a dynamic import of a computed name (${[...r.loads.computedIn].join(", ")}): their files are taken as used`);
  out.push("Assumed:", ...assumed.map((a) => `  - ${a}`));
  if (r.notReached.length > 0)
    out.push(`Not examined in the time (${r.notReached.length}): ${r.notReached.slice(0, 10).join(", ")}; pass a folder.`);
  if (r.failed.length > 0) out.push(`Could not be examined: ${r.failed.join("; ")}`);
  return out.join("\n");
}
