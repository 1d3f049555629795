// getCallHierarchy: who calls a function (incoming) and what it calls (outgoing), to a depth, as
// an indented tree with file:line:col. Incoming calls span the project: the first level waits for
// the server's readiness and says when partial.
import * as v from "valibot";
import type { CallHierarchyIncomingCall, CallHierarchyItem, CallHierarchyOutgoingCall } from "vscode-languageserver-protocol";
import type { ToolContext } from "../../capabilities/context.ts";
import type { LspDocument } from "../../lsp/lsp-service.ts";
import { loadProjectsOf } from "../../services/language/verified-references.ts";
import { defineTool } from "../platform/define-tool.ts";
import { openAt, partialNote } from "./at-position.ts";
import { SourceLines } from "./locations.ts";
import { maxResultsField, positionFields } from "./position-input.ts";
import { symbolKindName } from "./symbol-kinds.ts";
import { callHierarchyViaVsCode } from "./vscode/call-hierarchy.ts";

type Direction = "incoming" | "outgoing";

export default defineTool({
  name: "getCallHierarchy",
  title: "Call hierarchy",
  description:
    "Shows who calls a function (incoming) and what it calls (outgoing), to a depth, as an indented tree with file:line:col, via the language server.",
  searchHint: "call hierarchy callers callees who calls this function call graph incoming outgoing",
  input: v.strictObject({
    ...positionFields,
    direction: v.optional(
      v.pipe(v.picklist(["incoming", "outgoing", "both"]), v.description("incoming: callers; outgoing: callees; both (default).")),
      "both",
    ),
    depth: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(4), v.description("Levels of calls to follow (default 1).")),
    ),
    ...maxResultsField(50, 500),
  }),
  annotations: { readOnlyHint: true },
  slim: true,
  largeResult: true,
  viaExtension: callHierarchyViaVsCode,
  async handler(input, ctx) {
    const at = await openAt(input, ctx, { method: "textDocument/prepareCallHierarchy" });
    const items = (await at.doc.request<CallHierarchyItem[] | null>("textDocument/prepareCallHierarchy", at.params)) ?? [];
    const root = items[0];
    if (root === undefined)
      return `${at.note}\`${at.name}\` at ${at.doc.relative}:${at.position.line + 1} is not a function or method the server can follow (${at.doc.server.serverName}).`;
    const sources = new SourceLines(ctx);
    const out = [`${await label(root, sources)}`];
    let note = "";
    const directions: Direction[] = input.direction === "both" ? ["incoming", "outgoing"] : [input.direction];
    for (const direction of directions) {
      const budget = { left: input.maxResults };
      out.push(`  ${direction === "incoming" ? "called by" : "calls"}:`);
      const answer =
        direction === "incoming"
          ? await incomingCalls(ctx, at, root)
          : {
              value: await at.doc.request<CallHierarchyOutgoingCall[] | null>("callHierarchy/outgoingCalls", { item: root }),
              complete: true,
            };
      note += partialNote(answer);
      const lines = await tree(at.doc, direction, answer.value ?? [], {
        depth: 1,
        maxDepth: input.depth ?? 1,
        budget,
        sources,
        seen: new Set([key(root)]),
      });
      out.push(...(lines.length > 0 ? lines : ["    (none)"]));
      if (budget.left <= 0) out.push(`    … cut at ${input.maxResults}; raise maxResults`);
    }
    return `${at.note}${note}${out.join("\n")}`;
  },
});

/** Callers span the project: every project that uses the function is loaded (and checked) first. */
async function incomingCalls(
  ctx: ToolContext,
  at: Awaited<ReturnType<typeof openAt>>,
  item: CallHierarchyItem,
): Promise<{ value: CallHierarchyIncomingCall[] | null; complete: boolean; why?: string }> {
  const coverage = await loadProjectsOf(ctx, at.doc, { name: at.name, params: at.params });
  const answer = await at.doc.wholeProject<CallHierarchyIncomingCall[] | null>("callHierarchy/incomingCalls", { item });
  const why = [answer.complete ? undefined : answer.why, coverage.complete ? undefined : coverage.why].filter(
    (w): w is string => w !== undefined,
  );
  return { value: answer.value, complete: why.length === 0, ...(why.length > 0 ? { why: why.join("; ") } : {}) };
}

interface Walk {
  depth: number;
  maxDepth: number;
  budget: { left: number };
  sources: SourceLines;
  seen: Set<string>;
}

async function tree(
  doc: LspDocument,
  direction: Direction,
  calls: readonly (CallHierarchyIncomingCall | CallHierarchyOutgoingCall)[],
  walk: Walk,
): Promise<string[]> {
  const out: string[] = [];
  for (const call of calls) {
    if (walk.budget.left <= 0) break;
    walk.budget.left -= 1;
    const item = "from" in call ? call.from : call.to;
    const at = call.fromRanges[0];
    const where = at === undefined ? "" : `  (at line ${at.start.line + 1})`;
    const cycle = walk.seen.has(key(item));
    out.push(
      `${"  ".repeat(walk.depth + 1)}${await label(item, walk.sources)}${direction === "incoming" ? where : ""}${cycle ? "  (cycle)" : ""}`,
    );
    if (cycle || walk.depth >= walk.maxDepth) continue;
    const method = direction === "incoming" ? "callHierarchy/incomingCalls" : "callHierarchy/outgoingCalls";
    const next = (await doc.request<(CallHierarchyIncomingCall | CallHierarchyOutgoingCall)[] | null>(method, { item })) ?? [];
    out.push(...(await tree(doc, direction, next, { ...walk, depth: walk.depth + 1, seen: new Set([...walk.seen, key(item)]) })));
  }
  return out;
}

async function label(item: CallHierarchyItem, sources: SourceLines): Promise<string> {
  const { name } = await sources.of(item.uri);
  // Not item.detail: servers fill it with the module or file name, which the location already says.
  return `${item.name} ${symbolKindName(item.kind)}  ${name}:${item.selectionRange.start.line + 1}:${item.selectionRange.start.character + 1}`;
}

function key(item: CallHierarchyItem): string {
  return `${item.uri}:${item.selectionRange.start.line}:${item.selectionRange.start.character}`;
}
