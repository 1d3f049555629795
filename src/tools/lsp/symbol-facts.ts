// The facts explainSymbol, explainDiagnostic and getChangeImpact put together about the symbol at
// a position, each asked of the server on its own: what one server cannot answer (no call
// hierarchy) is said in its place, and the others still answer.
import type { CallHierarchyIncomingCall, CallHierarchyItem, Hover, Location, LocationLink } from "vscode-languageserver-protocol";
import type { ToolContext } from "../../capabilities/context.ts";
import { ToolError } from "../../errors.ts";
import { ServerRefusal } from "../../lsp/server-refusal.ts";
import { loadProjectsOf } from "../../services/language/verified-references.ts";
import type { openAt } from "./at-position.ts";
import { placesOf, renderPlaces, type SourceLines, sortPlaces } from "./locations.ts";
import { markupText } from "../../services/lsp-markup/markup.ts";

type At = Awaited<ReturnType<typeof openAt>>;

/** An answer, or why there is none (the server lacks the method, or refused). */
export type Fact<T> = { value: T } | { missing: string };

async function fact<T>(at: At, method: string, ask: () => Promise<T>): Promise<Fact<T>> {
  if (!at.doc.server.supports(method)) return { missing: `${at.doc.server.serverName} has no ${method}` };
  try {
    return { value: await ask() };
  } catch (err) {
    if (err instanceof ServerRefusal || err instanceof ToolError) return { missing: err.message };
    throw err;
  }
}

export function hoverText(at: At): Promise<Fact<string>> {
  return fact(at, "textDocument/hover", async () =>
    markupText((await at.doc.request<Hover | null>("textDocument/hover", at.params))?.contents),
  );
}

/** Where the symbol is defined, rendered `file:line:col  source`. */
export function definitionLines(at: At, sources: SourceLines): Promise<Fact<string[]>> {
  return fact(at, "textDocument/definition", async () => {
    const answer = await at.doc.request<Location | Location[] | LocationLink[] | null>("textDocument/definition", at.params);
    return renderPlaces(sortPlaces(placesOf(answer)), { sources, verbosity: "normal" });
  });
}

interface Callers {
  /** Every caller the server gave; `lines` lists the first `max`. */
  total: number;
  lines: string[];
  complete: boolean;
  why?: string;
}

/** Functions that call the symbol (incoming calls), the projects that use it loaded first. */
export function callersOf(ctx: ToolContext, at: At, opts: { max: number; sources: SourceLines }): Promise<Fact<Callers>> {
  return fact(at, "textDocument/prepareCallHierarchy", async () => {
    const items = (await at.doc.request<CallHierarchyItem[] | null>("textDocument/prepareCallHierarchy", at.params)) ?? [];
    const root = items[0];
    if (root === undefined) return { total: 0, lines: [], complete: true, why: "not a function the server can follow" };
    const coverage = await loadProjectsOf(ctx, at.doc, { name: at.name, params: at.params });
    const answer = await at.doc.wholeProject<CallHierarchyIncomingCall[] | null>("callHierarchy/incomingCalls", { item: root });
    const calls = answer.value ?? [];
    const lines: string[] = [];
    for (const call of calls.slice(0, opts.max)) {
      const { name } = await opts.sources.of(call.from.uri, true);
      const site = call.fromRanges[0]?.start ?? call.from.selectionRange.start;
      lines.push(`${call.from.name}  ${name}:${site.line + 1}:${site.character + 1}`);
    }
    const why = [answer.complete ? undefined : answer.why, coverage.complete ? undefined : coverage.why].filter(
      (w): w is string => w !== undefined,
    );
    return { total: calls.length, lines, complete: why.length === 0, ...(why.length > 0 ? { why: why.join("; ") } : {}) };
  });
}

/** A fact's lines under its heading, or the reason it is missing. */
export function section<T>(heading: string, found: Fact<T>, opts: { render: (value: T) => string[] }): string[] {
  if ("missing" in found) return [`${heading}: unknown (${found.missing})`];
  const lines = opts.render(found.value);
  return lines.length === 0 ? [`${heading}: none`] : [`${heading}:`, ...lines.map((l) => `  ${l}`)];
}
