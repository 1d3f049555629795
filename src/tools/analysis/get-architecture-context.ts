// getArchitectureContext: the shape of a codebase for a model about to change it: its modules
// (folders of source files), which depend on which (imports resolved by the language servers,
// services/lsp-imports), the external packages each uses, the import cycles between modules and
// between files (Tarjan, strongly-connected.ts), and where the programs start.
import * as v from "valibot";
import { dirname } from "../../lib/paths/posix-path.ts";
import { declaredEntryPoints, startsAProgram } from "../../services/analysis/entry-points.ts";
import { sourceFilesUnder } from "../../services/analysis/source-files.ts";
import { isTestFile } from "../../services/conventions/test-files.ts";
import { importGraph } from "../../services/lsp-imports/import-graph.ts";
import { cyclesOf } from "../../services/lsp-imports/strongly-connected.ts";
import { defineTool } from "../platform/define-tool.ts";

const MAX_TEXT_BYTES = 1024 * 1024;
const MAX_LISTED = 8;

interface Module {
  files: number;
  tests: number;
  dependsOn: Map<string, number>;
  usedBy: Set<string>;
  external: Set<string>;
}

export default defineTool({
  name: "getArchitectureContext",
  title: "Architecture overview",
  description:
    "Describes a codebase's architecture: its modules (folders), which depend on which and on what packages, import cycles between modules and files, and the entry points.",
  searchHint: "architecture overview modules dependencies layers module graph circular dependencies entry points codebase structure",
  input: v.strictObject({
    path: v.optional(v.pipe(v.string(), v.minLength(1), v.description("Folder to describe (default: the workspace).")), "."),
    moduleDepth: v.optional(
      v.pipe(
        v.number(),
        v.integer(),
        v.minValue(1),
        v.maxValue(6),
        v.description("Folder levels that make a module (default 2: src/core)."),
      ),
      2,
    ),
    maxFiles: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(2000), v.description("Files read (default 300).")), 300),
  }),
  annotations: { readOnlyHint: true },
  timeoutMs: 180_000,
  largeResult: true,
  async handler(input, ctx) {
    const listed = await sourceFilesUnder(ctx, input.path, { max: input.maxFiles });
    const moduleOf = (file: string) => {
      const dir = dirname(file);
      return dir === "." || dir === "" ? "." : dir.split("/").slice(0, input.moduleDepth).join("/");
    };
    const graph = await importGraph(ctx, listed.files, { maxFiles: input.maxFiles, depth: 1 });
    const modules = new Map<string, Module>();
    const get = (name: string) => {
      let found = modules.get(name);
      if (found === undefined) {
        found = { files: 0, tests: 0, dependsOn: new Map(), usedBy: new Set(), external: new Set() };
        modules.set(name, found);
      }
      return found;
    };
    for (const file of listed.files) {
      const m = get(moduleOf(file));
      if (isTestFile(file)) m.tests += 1;
      else m.files += 1;
    }
    const fileEdges = new Map<string, string[]>();
    for (const [file, edges] of graph.edges) {
      const from = moduleOf(file);
      const m = get(from);
      fileEdges.set(
        file,
        edges.flatMap((e) => (e.to === undefined ? [] : [e.to])),
      );
      for (const edge of edges) {
        if (edge.kind === "external" && !isTestFile(file)) m.external.add(packageName(edge.specifier));
        if (edge.to === undefined) continue;
        const to = moduleOf(edge.to);
        if (to === from) continue;
        m.dependsOn.set(to, (m.dependsOn.get(to) ?? 0) + 1);
        get(to).usedBy.add(from);
      }
    }
    const names = [...modules.keys()].sort();
    const moduleCycles = cyclesOf(names, new Map(names.map((n) => [n, [...(modules.get(n)?.dependsOn.keys() ?? [])]])));
    const fileCycles = cyclesOf(graph.files, fileEdges);
    const entries = await declaredEntryPoints(ctx);
    for (const file of listed.files) {
      const text = await ctx.fs.readText(file, { maxBytes: MAX_TEXT_BYTES }).catch(() => "");
      const why = startsAProgram(file, text);
      if (why !== undefined && !entries.files.has(file)) entries.files.set(file, why);
    }
    const out = [
      `Architecture of ${ctx.fs.relative(await ctx.fs.resolve(input.path)) || "."}: ${listed.files.length} source file(s) in ${modules.size} module(s) (folders, ${input.moduleDepth} level(s)); imports resolved by ${[...graph.servers].join(", ") || "no server"}.`,
      entries.files.size === 0
        ? "Entry points: none declared (no package.json main/exports/bin, main function or __main__ guard found)."
        : `Entry points:\n${[...entries.files].map(([f, why]) => `  ${f}  (${why})`).join("\n")}`,
      "Modules (files, tests) -> what they import:",
    ];
    // Foundations first: the modules most others use, then by name.
    for (const name of names.sort((a, b) => (modules.get(b)?.usedBy.size ?? 0) - (modules.get(a)?.usedBy.size ?? 0) || (a < b ? -1 : 1))) {
      const m = modules.get(name) as Module;
      const deps = [...m.dependsOn].sort((a, b) => b[1] - a[1]).map(([to, n]) => `${to} (${n})`);
      const ext = [...m.external].sort();
      out.push(
        `  ${name}  (${m.files} file(s)${m.tests > 0 ? `, ${m.tests} test(s)` : ""}; used by ${m.usedBy.size})${deps.length > 0 ? ` -> ${deps.join(", ")}` : ""}${ext.length > 0 ? `; packages: ${ext.slice(0, MAX_LISTED).join(", ")}${ext.length > MAX_LISTED ? ` +${ext.length - MAX_LISTED}` : ""}` : ""}`,
      );
    }
    out.push(
      moduleCycles.length === 0
        ? "Module cycles: none."
        : `Module cycles (${moduleCycles.length}):\n${moduleCycles.map((c) => `  ${[...c, c[0]].join(" -> ")}`).join("\n")}`,
      fileCycles.length === 0
        ? "File import cycles: none."
        : `File import cycles (${fileCycles.length}):\n${fileCycles.map((c) => `  ${[...c, c[0]].join(" -> ")}`).join("\n")}`,
    );
    if (entries.assumed.length > 0) out.push(`Assumed: ${entries.assumed.join("; ")}`);
    if (listed.left > 0) out.push(`${listed.left} more source file(s) not read; raise maxFiles or pass a folder.`);
    for (const [file, why] of graph.failed) out.push(`Imports of ${file} unknown: ${why}`);
    return out.join("\n");
  },
});

/** The package an import names: "@scope/name" or "name" of "name/sub/path"; a Go or Python module path as written. */
function packageName(specifier: string): string {
  if (specifier.includes(".") && !specifier.startsWith("@") && specifier.includes("/")) return specifier;
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : ((parts[0] ?? specifier).split(".")[0] ?? specifier);
}
