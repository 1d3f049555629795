// getImportTree: what a file imports, and what those import, as an indented tree of workspace
// files (external packages named at their leaves), with every import cycle in the graph found
// (Tarjan, linear in files + imports). Imports are resolved by the language server.
import * as v from "valibot";
import { importGraph, type ImportEdge } from "../../services/lsp-imports/import-graph.ts";
import { cyclesOf } from "../../services/lsp-imports/strongly-connected.ts";
import { defineTool } from "../platform/define-tool.ts";
import { fileField } from "./file-fields.ts";

const MAX_TREE_LINES = 300;

export default defineTool({
  name: "getImportTree",
  title: "Import tree",
  description:
    "Shows a file's imports as a tree (workspace files recursively, external packages as leaves) and every import cycle found, resolved by the language server.",
  searchHint: "import tree dependencies of file what does this file import circular imports cycles module graph",
  input: v.strictObject({
    ...fileField,
    depth: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(20), v.description("Levels followed (default 5).")), 5),
    maxFiles: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(2000), v.description("Files opened (default 300).")),
      300,
    ),
  }),
  annotations: { readOnlyHint: true },
  slim: true,
  timeoutMs: 120_000,
  largeResult: true,
  async handler(input, ctx) {
    const graph = await importGraph(ctx, [input.file], { maxFiles: input.maxFiles, depth: input.depth });
    const root = graph.files[0] as string;
    const files = new Map<string, string[]>();
    for (const [file, edges] of graph.edges)
      files.set(
        file,
        edges.filter((e) => e.to !== undefined).map((e) => e.to as string),
      );
    const cycles = cyclesOf(graph.files, files);
    const inCycle = new Set(cycles.flat());
    const out: string[] = [];
    const shown = new Set<string>();
    const walk = (file: string, depth: number) => {
      for (const edge of graph.edges.get(file) ?? []) {
        if (out.length >= MAX_TREE_LINES) return;
        out.push(
          `${"  ".repeat(depth)}${label(edge)}${edge.to !== undefined && inCycle.has(edge.to) && inCycle.has(file) ? " (cycle)" : ""}${edge.to !== undefined && shown.has(edge.to) && (graph.edges.get(edge.to)?.length ?? 0) > 0 ? " (above)" : ""}`,
        );
        if (edge.to === undefined || shown.has(edge.to)) continue;
        shown.add(edge.to);
        walk(edge.to, depth + 1);
      }
    };
    shown.add(root);
    walk(root, 1);
    const counts = { file: 0, external: 0, unresolved: 0 };
    for (const edges of graph.edges.values()) for (const e of edges) counts[e.kind] += 1;
    const head = `${root} imports (${graph.files.length} workspace file${graph.files.length === 1 ? "" : "s"} walked; ${counts.external} external, ${counts.unresolved} unresolved import${counts.unresolved === 1 ? "" : "s"}; ${[...graph.servers].join(", ") || "no server"}):`;
    const tail: string[] = [];
    if (out.length >= MAX_TREE_LINES) tail.push(`… tree cut at ${MAX_TREE_LINES} lines.`);
    tail.push(
      cycles.length === 0
        ? "Cycles: none among the files walked."
        : `Cycles (${cycles.length}):\n${cycles.map((c) => `  ${[...c, c[0]].join(" -> ")}`).join("\n")}`,
    );
    if (graph.notWalked.size > 0)
      tail.push(
        `Not walked (depth or maxFiles reached, or no language server): ${[...graph.notWalked].slice(0, 10).join(", ")}${graph.notWalked.size > 10 ? ` and ${graph.notWalked.size - 10} more` : ""}`,
      );
    for (const [file, why] of graph.failed) tail.push(`Could not read the imports of ${file}: ${why}`);
    return [head, ...(out.length > 0 ? out : ["  (no imports)"]), ...tail].join("\n");
  },
});

function label(edge: ImportEdge): string {
  if (edge.kind === "file") return `${edge.to} ("${edge.specifier}", line ${edge.line})`;
  return `${edge.specifier} (${edge.kind}, line ${edge.line})`;
}
