// Dependency trees rendered as indented text: npm ls --json (with missing, invalid and extraneous
// marked), and go mod graph's edge list walked from the main module. cargo tree prints a tree
// already and is passed through.
import { isRecord } from "../../services/diagnostics/project-facts.ts";

const MAX_NODES = 2000;

export function renderNpmTree(report: Record<string, unknown>): string {
  const lines = [`${String(report.name ?? "(root)")}@${String(report.version ?? "")}`];
  let count = 0;
  const walk = (deps: unknown, prefix: string) => {
    if (!isRecord(deps)) return;
    const entries = Object.entries(deps);
    for (const [i, [name, node]] of entries.entries()) {
      if (++count > MAX_NODES) return;
      const last = i === entries.length - 1;
      const info = isRecord(node) ? node : {};
      const marks = [
        info.missing === true && "MISSING",
        info.invalid === true && "INVALID",
        info.extraneous === true && "extraneous",
        info.overridden === true && "overridden",
        info.deduped === true && "deduped",
      ].filter(Boolean);
      lines.push(
        `${prefix}${last ? "└── " : "├── "}${name}@${String(info.version ?? info.required ?? "?")}${marks.length > 0 ? ` (${marks.join(", ")})` : ""}`,
      );
      walk(info.dependencies, `${prefix}${last ? "    " : "│   "}`);
    }
  };
  walk(report.dependencies, "");
  if (count > MAX_NODES) lines.push(`[... cut at ${MAX_NODES} packages; pass a smaller depth]`);
  const problems = Array.isArray(report.problems) ? report.problems.map(String) : [];
  if (problems.length > 0) lines.push("", "Problems:", ...problems.slice(0, 50).map((p) => `- ${p}`));
  return lines.join("\n");
}

/** go mod graph: "from to" lines; the first "from" without a version is the main module. */
export function renderGoGraph(graph: string, depth: number): string {
  const edges = new Map<string, string[]>();
  for (const line of graph.split("\n")) {
    const [from, to] = line.trim().split(/\s+/);
    if (from === undefined || to === undefined) continue;
    edges.set(from, [...(edges.get(from) ?? []), to]);
  }
  const root = [...edges.keys()].find((k) => !k.includes("@")) ?? [...edges.keys()][0];
  if (root === undefined) return "(no module dependencies)";
  const lines = [root];
  let count = 0;
  const walk = (node: string, prefix: string, level: number, seen: ReadonlySet<string>) => {
    const children = edges.get(node) ?? [];
    for (const [i, child] of children.entries()) {
      if (++count > MAX_NODES) return;
      const last = i === children.length - 1;
      const repeat = seen.has(child);
      lines.push(`${prefix}${last ? "└── " : "├── "}${child}${repeat ? " (cycle)" : ""}`);
      if (!repeat && level < depth) walk(child, `${prefix}${last ? "    " : "│   "}`, level + 1, new Set([...seen, child]));
    }
  };
  walk(root, "", 1, new Set([root]));
  if (count > MAX_NODES) lines.push(`[... cut at ${MAX_NODES} modules; pass a smaller depth]`);
  return lines.join("\n");
}
