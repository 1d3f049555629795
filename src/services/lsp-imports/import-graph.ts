// The import graph of source files, walked from some files through their imports: each import's
// module specifier is resolved by asking the file's language server for its definition (the
// server knows the project's paths, aliases and packages), so the graph is the one the compiler
// sees. Imports the server resolves outside the workspace are external; those it cannot resolve are
// listed as unresolved, never guessed. Files are opened a few at a time, up to `maxFiles`.
import type { Location, LocationLink } from "vscode-languageserver-protocol";
import type { ToolContext } from "../../capabilities/context.ts";
import { ToolError } from "../../errors.ts";
import { openDocument } from "../language/open-document.ts";
import { importStatements, importsKnown } from "./import-statements.ts";

const CONCURRENCY = 4;
/** Installed dependencies inside the workspace are other people's code: external, not walked. */
const DEPENDENCY_DIR = /(^|\/)(node_modules|site-packages|\.venv|venv|vendor)\//;

export interface ImportEdge {
  /** Root-relative file the import names, or undefined when it is external or unresolved. */
  to: string | undefined;
  specifier: string;
  /** 1-based line of the import. */
  line: number;
  kind: "file" | "external" | "unresolved";
}

export interface ImportGraph {
  /** Files walked, in the order they were reached (the roots first). */
  files: string[];
  edges: Map<string, ImportEdge[]>;
  /** Files reached but not walked: past maxFiles or depth, or not a language whose imports are known. */
  notWalked: Set<string>;
  /** Files that could not be opened in a server, with why. */
  failed: Map<string, string>;
  servers: Set<string>;
}

export async function importGraph(
  ctx: ToolContext,
  roots: readonly string[],
  opts: { maxFiles: number; depth?: number },
): Promise<ImportGraph> {
  const graph: ImportGraph = { files: [], edges: new Map(), notWalked: new Set(), failed: new Map(), servers: new Set() };
  const depthOf = new Map<string, number>();
  const queue: string[] = [];
  for (const root of roots) {
    const rel = ctx.fs.relative(await ctx.fs.resolve(root));
    if (!depthOf.has(rel)) {
      depthOf.set(rel, 0);
      queue.push(rel);
    }
  }
  const walkOne = async (file: string) => {
    const found = await importsOf(ctx, file).catch((err: unknown) => {
      graph.failed.set(file, err instanceof ToolError ? err.message : String(err));
      return undefined;
    });
    if (found === undefined) return;
    graph.servers.add(found.server);
    graph.edges.set(file, found.edges);
    const depth = (depthOf.get(file) ?? 0) + 1;
    for (const edge of found.edges) {
      if (edge.to === undefined || depthOf.has(edge.to)) continue;
      depthOf.set(edge.to, depth);
      if ((opts.depth !== undefined && depth > opts.depth) || ctx.lsp.languageOf(edge.to) === undefined) graph.notWalked.add(edge.to);
      else queue.push(edge.to);
    }
  };
  const worker = async () => {
    for (let file = queue.shift(); file !== undefined && !ctx.signal.aborted; file = queue.shift()) {
      if (graph.files.length >= opts.maxFiles) {
        graph.notWalked.add(file);
        continue;
      }
      graph.files.push(file);
      await walkOne(file);
    }
  };
  // Workers start again while the walk finds files faster than they drain.
  while (queue.length > 0 && !ctx.signal.aborted) await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return graph;
}

async function importsOf(ctx: ToolContext, file: string): Promise<{ edges: ImportEdge[]; server: string }> {
  const doc = await openDocument(file, ctx, { method: "textDocument/definition" });
  if (!importsKnown(doc.languageId)) return { edges: [], server: doc.server.serverName };
  const edges: ImportEdge[] = [];
  for (const statement of importStatements(doc.lines, doc.languageId)) {
    const answer = await doc
      .request<Location | Location[] | LocationLink[] | null>("textDocument/definition", {
        textDocument: { uri: doc.uri },
        // One character in: inside the specifier's text, not on its quote.
        position: { line: statement.line, character: statement.character + 1 },
      })
      .catch(() => null);
    const uri = firstUri(answer);
    const path = uri === undefined ? undefined : await ctx.lsp.pathOf(uri);
    const line = statement.line + 1;
    const target = path === undefined ? undefined : ctx.fs.relative(path);
    if (target !== undefined && DEPENDENCY_DIR.test(target))
      edges.push({ to: undefined, specifier: statement.specifier, line, kind: "external" });
    else if (path !== undefined && path !== doc.path)
      edges.push({ to: ctx.fs.relative(path), specifier: statement.specifier, line, kind: "file" });
    else if (uri !== undefined && path === undefined) edges.push({ to: undefined, specifier: statement.specifier, line, kind: "external" });
    else if (/^[./]/.test(statement.specifier) || doc.languageId === "c" || doc.languageId === "cpp")
      edges.push({ to: undefined, specifier: statement.specifier, line, kind: "unresolved" });
    else edges.push({ to: undefined, specifier: statement.specifier, line, kind: "external" });
  }
  return { edges, server: doc.server.serverName };
}

function firstUri(answer: Location | Location[] | LocationLink[] | null): string | undefined {
  if (answer === null) return undefined;
  const first = Array.isArray(answer) ? answer[0] : answer;
  if (first === undefined) return undefined;
  return "targetUri" in first ? first.targetUri : first.uri;
}
