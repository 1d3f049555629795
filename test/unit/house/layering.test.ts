// The layout's rules (README.md, "Architecture"), read off the imports with the TypeScript parser:
// - src/ is in layers and a file imports only from its own layer or below;
// - no toolset imports another toolset (what several share is a service), and tools/platform
//   imports no toolset;
// - no circle, between files or between units (a toolset, a service, a folder of a layer);
// - only the jail mints checked paths (markChecked is called and imported in src/security/jail/ only);
// - runtime/: each runtime's folder imports only shared code, never another runtime's; the shim
//   imports nothing from runtime/.
import { readFile } from "node:fs/promises";
import { dirname, join, posix, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { scan, sourceFiles } from "../../helpers/source-imports.ts";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");

/** src/'s layers, top first: a file may import from its own layer and the ones below it. */
const LAYERS: readonly { name: string; holds: (path: string) => boolean }[] = [
  {
    name: "app",
    holds: (p) =>
      ["src/bridge.ts", "src/app.ts", "src/idle-exit.ts", "src/remote-setup.ts"].includes(p) ||
      p.startsWith("src/startup/") ||
      p.startsWith("src/cli/") ||
      p.startsWith("src/dashboard/"),
  },
  { name: "transports", holds: (p) => p.startsWith("src/transports/") },
  { name: "mcp", holds: (p) => p.startsWith("src/mcp/") },
  // Prompts, resources and skills run the tools by name through the engine, and sit with them;
  // plugins add tools to the registry, and sit with them too.
  { name: "tools", holds: (p) => /^src\/(tools|prompts|resources|skills|plugins)\//.test(p) },
  { name: "services", holds: (p) => p.startsWith("src/services/") },
  { name: "capabilities", holds: (p) => p.startsWith("src/capabilities/") },
  { name: "engines", holds: (p) => p.startsWith("src/lsp/") || p.startsWith("src/dap/") || p.startsWith("src/extension/") },
  { name: "foundation", holds: (p) => /^src\/(workspace|config|lock)\//.test(p) },
  { name: "security", holds: (p) => p.startsWith("src/security/") },
  { name: "lib", holds: (p) => p.startsWith("src/lib/") },
  { name: "base", holds: (p) => /^src\/[^/]+\.ts$/.test(p) || p.startsWith("src/ports/") },
];

function layerOf(path: string): number {
  const index = LAYERS.findIndex((l) => l.holds(path));
  if (index < 0) throw new Error(`${path} is in no layer: add its folder to LAYERS`);
  return index;
}

/** The runtime folders: each runtime's own code may use the shared parts, never another runtime's. */
const RUNTIME_SHARED = ["runtime/shared/", "runtime/lsp/", "runtime/cli/"];
const RUNTIME_OWN = ["runtime/node/", "runtime/bun/", "runtime/deno/"];

/** What is wrong with `from` importing `to` (repository-relative paths), or undefined. */
function importProblem(from: string, to: string): string | undefined {
  if (from.startsWith("shim/") && to.startsWith("runtime/")) return "the shim imports nothing from runtime/";
  if (from.startsWith("src/") && !to.startsWith("src/")) return "src/ imports only src/";
  if (from.startsWith("runtime/")) {
    const own = RUNTIME_OWN.find((d) => from.startsWith(d));
    const other = RUNTIME_OWN.find((d) => to.startsWith(d));
    if (other !== undefined && own !== other && (own !== undefined || RUNTIME_SHARED.some((d) => from.startsWith(d)))) {
      return `${own ?? "shared runtime code"} imports ${other}: runtimes share only runtime/shared, lsp and cli`;
    }
  }
  if (!from.startsWith("src/") || !to.startsWith("src/")) return undefined;
  const [a, b] = [layerOf(from), layerOf(to)];
  if (b < a) return `${LAYERS[a]?.name} imports ${LAYERS[b]?.name}, a layer above it`;
  const toolsetOf = (p: string) => /^src\/tools\/([^/]+)\//.exec(p)?.[1];
  const [ta, tb] = [toolsetOf(from), toolsetOf(to)];
  if (ta !== undefined && ta !== "platform" && tb !== undefined && tb !== ta && tb !== "platform")
    return `toolset ${ta} imports toolset ${tb} (move what they share to src/services)`;
  if (ta === "platform" && tb !== undefined && tb !== "platform") return `tools/platform imports toolset ${tb}`;
  if (ta !== undefined && ta !== "platform" && /^src\/tools\/[^/]+\.ts$/.test(to)) return "a toolset imports the catalogue of all toolsets";
  return undefined;
}

/** The unit a file belongs to for the circle check: a toolset, a service, one folder of a layer. */
function unitOf(path: string): string {
  if (!path.startsWith("src/")) return path.split("/").slice(0, 2).join("/");
  if (/^src\/[^/]+\.ts$/.test(path)) return `src (${LAYERS[layerOf(path)]?.name})`;
  const parts = path.split("/");
  const deep = ["tools", "services", "mcp", "security", "lib", "capabilities"].includes(parts[1] ?? "");
  return parts.slice(0, deep && parts.length > 3 ? 3 : 2).join("/");
}

/** Strongly connected parts of a graph with more than one node: its circles. */
function circles(graph: ReadonlyMap<string, ReadonlySet<string>>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter++);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node) ?? 0, low.get(next) ?? 0));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node) ?? 0, index.get(next) ?? 0));
    }
    if (low.get(node) !== index.get(node)) return;
    const part: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop();
      if (member !== undefined) {
        onStack.delete(member);
        part.push(member);
      }
    } while (member !== undefined && member !== node);
    if (part.length > 1) found.push(part.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

interface Edge {
  from: string;
  to: string;
}

async function readGraph(): Promise<{ edges: Edge[]; minters: string[] }> {
  const files = (await Promise.all(["src", "runtime", "shim"].map((d) => sourceFiles(join(root, d))))).flat();
  const edges: Edge[] = [];
  const minters: string[] = [];
  for (const file of files) {
    const from = relative(root, file).split("\\").join("/");
    const found = scan(await readFile(file, "utf8"));
    for (const { spec } of found.specifiers) {
      if (!spec.startsWith(".")) continue;
      const to = posix.normalize(posix.join(posix.dirname(from), spec));
      edges.push({ from, to });
      if (
        to === "src/security/jail/workspace-path.ts" &&
        !from.startsWith("src/security/jail/") &&
        /\bmarkChecked\b/.test(await readFile(file, "utf8"))
      )
        minters.push(from);
    }
    if (found.calls.includes("markChecked") && !from.startsWith("src/security/jail/")) minters.push(from);
  }
  return { edges, minters: [...new Set(minters)] };
}

function graphOf(edges: readonly Edge[], node: (path: string) => string): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const { from, to } of edges) {
    const [a, b] = [node(from), node(to)];
    if (a === b) continue;
    if (!graph.has(a)) graph.set(a, new Set());
    graph.get(a)?.add(b);
  }
  return graph;
}

describe("the layout", async () => {
  const { edges, minters } = await readGraph();

  it("reads the sources", () => {
    expect(edges.length).toBeGreaterThan(1000);
  });

  it("every import goes down the layers, no toolset imports another, runtimes share only shared code", () => {
    const problems = edges.flatMap(({ from, to }) => {
      const problem = importProblem(from, to);
      return problem === undefined ? [] : [`${from} -> ${to}: ${problem}`];
    });
    expect(problems).toEqual([]);
  });

  it("has no circle between files", () => {
    expect(circles(graphOf(edges, (p) => p))).toEqual([]);
  });

  it("has no circle between units (toolsets, services, folders of a layer)", () => {
    expect(circles(graphOf(edges, unitOf))).toEqual([]);
  });

  it("only the jail mints checked paths", () => {
    expect(minters).toEqual([]);
  });

  describe("the checks themselves", () => {
    it.each([
      ["src/lib/glob/parse.ts", "src/security/jail/workspace-path.ts"],
      ["src/services/git/repository.ts", "src/tools/platform/define-tool.ts"],
      ["src/tools/platform/registry.ts", "src/mcp/call/tool-result.ts"],
      ["src/tools/search/search-workspace.ts", "src/tools/edit/edit-text.ts"],
      ["src/tools/platform/registry.ts", "src/tools/git/index.ts"],
      ["src/tools/git/git-add.ts", "src/tools/toolsets.ts"],
      ["src/errors.ts", "src/lib/paths/posix-path.ts"],
      ["src/workspace/walk.ts", "src/lsp/lsp-service.ts"],
      ["shim/discovery.ts", "runtime/shared/process.ts"],
      ["runtime/bun/serve.ts", "runtime/node/serve.ts"],
      ["runtime/shared/spawn.ts", "runtime/deno/spawn.ts"],
      ["src/app.ts", "runtime/node.ts"],
    ])("refuses %s -> %s", (from, to) => {
      expect(importProblem(from, to)).toBeDefined();
    });

    it.each([
      ["src/errors.ts", "src/ports/errors.ts"],
      ["src/tools/git/git-add.ts", "src/services/git/repository.ts"],
      ["src/tools/git/git-add.ts", "src/tools/platform/define-tool.ts"],
      ["src/tools/toolsets.ts", "src/tools/git/index.ts"],
      ["src/mcp/call/tool-call.ts", "src/tools/platform/define-tool.ts"],
      ["src/lsp/apply-edit.ts", "src/workspace/workspace-fs.ts"],
      ["runtime/bun/serve.ts", "runtime/shared/ws-policy.ts"],
      ["runtime/node.ts", "runtime/node/serve.ts"],
      ["shim/main.ts", "src/cli/cli-host.ts"],
    ])("allows %s -> %s", (from, to) => {
      expect(importProblem(from, to)).toBeUndefined();
    });

    it("finds a circle, and none in a tree", () => {
      const graph = (pairs: [string, string][]) =>
        graphOf(
          pairs.map(([from, to]) => ({ from, to })),
          (p) => p,
        );
      expect(
        circles(
          graph([
            ["a", "b"],
            ["b", "c"],
            ["c", "a"],
            ["c", "d"],
          ]),
        ),
      ).toEqual([["a", "b", "c"]]);
      expect(
        circles(
          graph([
            ["a", "b"],
            ["a", "c"],
            ["b", "c"],
          ]),
        ),
      ).toEqual([]);
    });
  });
});
