// getChangeImpact: the blast radius of a change before it is made or merged. The change is a symbol,
// a file's lines, a whole file, or (given nothing) the working tree's diff against HEAD. Every
// declaration it touches is followed through its verified references (verified-references.ts: the
// answer is partial, and says why, when not every file that mentions the name could be checked)
// and its callers (call hierarchy); the files that use them are ranked riskiest first (most uses,
// no test reaching them), with the tests that cover the touched code and its users.
import * as v from "valibot";
import type { CallHierarchyIncomingCall, CallHierarchyItem } from "vscode-languageserver-protocol";
import type { ToolContext } from "../../capabilities/context.ts";
import { ToolError, errorMessage } from "../../errors.ts";
import type { LspDocument } from "../../lsp/lsp-service.ts";
import { workingTreeChanges, type ChangedFile } from "../../services/analysis/changed-ranges.ts";
import { coveringTests } from "../../services/analysis/covering-tests.ts";
import { topLevelSymbols, type TopSymbol } from "../../services/analysis/exported-symbols.ts";
import { isTestFile } from "../../services/conventions/test-files.ts";
import { openDocument } from "../../services/language/open-document.ts";
import { verifiedReferences } from "../../services/language/verified-references.ts";
import { defineTool } from "../platform/define-tool.ts";

const MAX_SYMBOLS = 25;
const CALLABLE = new Set([6, 9, 12]);

interface Touched {
  file: string;
  symbol: string;
  line: number;
  references: number;
  callers: string[];
  partial?: string;
}

export default defineTool({
  name: "getChangeImpact",
  title: "Change impact (blast radius)",
  description:
    "Shows the blast radius of a change (a symbol, a file's lines, or the uncommitted diff): references, callers, files affected riskiest first, and the tests covering them.",
  searchHint: "change impact blast radius what breaks if I change this affected files callers references which tests to run diff risk",
  input: v.strictObject({
    file: v.optional(v.pipe(v.string(), v.minLength(1), v.description("Changed file; omit for the working tree's diff against HEAD."))),
    symbol: v.optional(v.pipe(v.string(), v.minLength(1), v.description("A declaration in file (default: every one the lines touch)."))),
    startLine: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.description("1-based first changed line of file."))),
    endLine: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.description("Inclusive last changed line (default startLine)."))),
  }),
  annotations: { readOnlyHint: true },
  requires: { optionalProbes: ["git"] },
  timeoutMs: 240_000,
  largeResult: true,
  async handler(input, ctx) {
    const changes = await changesOf(input, ctx);
    if (changes.length === 0)
      return "No change: the working tree matches HEAD (and nothing is untracked). Pass file (and symbol or lines) to measure a change before making it.";
    const touched: Touched[] = [];
    const users = new Map<string, { references: number; symbols: Set<string> }>();
    const notes: string[] = [];
    for (const change of changes) {
      if (ctx.lsp.languageOf(change.file) === undefined) continue;
      const doc = await openDocument(change.file, ctx, { method: "textDocument/references" }).catch((err: unknown) => {
        notes.push(`${change.file}: not analysed (${errorMessage(err)})`);
        return undefined;
      });
      if (doc === undefined) continue;
      const symbols = selectSymbols(await topLevelSymbols(doc), change, input.symbol);
      if (input.symbol !== undefined && symbols.length === 0)
        throw new ToolError("symbol_not_found", `${change.file} declares no top-level \`${input.symbol}\``, {
          suggestion: "getDocumentSymbols lists what it declares.",
        });
      for (const symbol of symbols) {
        if (touched.length >= MAX_SYMBOLS) {
          notes.push(`Only the first ${MAX_SYMBOLS} touched declarations were followed; pass file and symbol for the others.`);
          break;
        }
        ctx.progress(touched.length, { message: `references of ${symbol.name}` });
        touched.push(await follow(ctx, doc, symbol, users));
      }
    }
    const targets = new Set(changes.map((c) => c.file));
    const covering = await coveringTests(ctx, { targets, users: new Set(users.keys()) });
    return report({ changes, touched, users, covering, notes, ctx });
  },
});

async function changesOf(
  input: { file?: string | undefined; startLine?: number | undefined; endLine?: number | undefined },
  ctx: ToolContext,
): Promise<ChangedFile[]> {
  if (input.file === undefined) {
    if (!(await ctx.probes.get("git")).available)
      throw new ToolError("not_supported", "Without file, the change is the git diff, and git is not installed", {
        suggestion: "Pass file (and symbol or startLine).",
      });
    return workingTreeChanges(ctx);
  }
  const file = ctx.fs.relative(await ctx.fs.resolve(input.file));
  if (input.startLine === undefined) return [{ file }];
  return [{ file, ranges: [{ start: input.startLine, end: input.endLine ?? input.startLine }] }];
}

/** The declarations a change touches: the named one; those whose lines it overlaps; for a whole file, what it exports. */
function selectSymbols(symbols: TopSymbol[], change: ChangedFile, name: string | undefined): TopSymbol[] {
  if (name !== undefined) return symbols.filter((s) => s.name === name);
  if (change.ranges === undefined) return symbols.filter((s) => s.exported);
  return symbols.filter((s) => change.ranges?.some((r) => r.start - 1 <= s.range.end.line && r.end - 1 >= s.range.start.line));
}

async function follow(
  ctx: ToolContext,
  doc: LspDocument,
  symbol: TopSymbol,
  users: Map<string, { references: number; symbols: Set<string> }>,
): Promise<Touched> {
  const params = { textDocument: { uri: doc.uri }, position: symbol.at };
  const refs = await verifiedReferences(ctx, doc, { name: symbol.name, params, includeDeclaration: false });
  for (const location of refs.locations) {
    const path = await ctx.lsp.pathOf(location.uri);
    if (path === undefined) continue;
    const file = ctx.fs.relative(path);
    if (file === doc.relative) continue;
    const user = users.get(file) ?? { references: 0, symbols: new Set<string>() };
    user.references += 1;
    user.symbols.add(symbol.name);
    users.set(file, user);
  }
  const callers = CALLABLE.has(symbol.kind) ? await callersOf(ctx, doc, params) : [];
  return {
    file: doc.relative,
    symbol: symbol.name,
    line: symbol.at.line + 1,
    references: refs.locations.length,
    callers,
    ...(refs.coverage.complete ? {} : { partial: refs.coverage.why ?? "not every file could be checked" }),
  };
}

/** Incoming calls (one level), as "name file:line"; empty where the server has no call hierarchy. */
async function callersOf(
  ctx: ToolContext,
  doc: LspDocument,
  params: { textDocument: { uri: string }; position: { line: number; character: number } },
): Promise<string[]> {
  if (!doc.server.supports("textDocument/prepareCallHierarchy")) return [];
  const items = (await doc.request<CallHierarchyItem[] | null>("textDocument/prepareCallHierarchy", params).catch(() => null)) ?? [];
  const item = items[0];
  if (item === undefined) return [];
  const calls = (await doc.request<CallHierarchyIncomingCall[] | null>("callHierarchy/incomingCalls", { item }).catch(() => null)) ?? [];
  const out: string[] = [];
  for (const call of calls) {
    const path = await ctx.lsp.pathOf(call.from.uri);
    // A call at a module's top level comes from an item named for the module (its path, for some servers).
    const name = call.from.name.includes("/") || call.from.kind === 2 ? "(top level)" : call.from.name;
    out.push(`${name} ${path === undefined ? call.from.uri : ctx.fs.relative(path)}:${call.from.selectionRange.start.line + 1}`);
  }
  return out;
}

function report(r: {
  changes: ChangedFile[];
  touched: Touched[];
  users: Map<string, { references: number; symbols: Set<string> }>;
  covering: Awaited<ReturnType<typeof coveringTests>>;
  notes: string[];
  ctx: ToolContext;
}): string {
  const reached = new Set<string>();
  for (const t of r.covering.tests.values()) for (const f of [...t.direct, ...t.through]) reached.add(f);
  const files = [...r.users].filter(([f]) => !isTestFile(f));
  // Riskiest first: uses of the changed code weigh double in a file no test reaches.
  const risk = (file: string, refs: number) => refs * (reached.has(file) ? 1 : 2);
  files.sort((a, b) => risk(b[0], b[1].references) - risk(a[0], a[1].references) || (a[0] < b[0] ? -1 : 1));
  const partial = r.touched.filter((t) => t.partial !== undefined);
  const totalRefs = r.touched.reduce((n, t) => n + t.references, 0);
  const out = [
    `Change: ${r.changes.map((c) => `${c.file}${c.ranges === undefined ? "" : `:${c.ranges.map((x) => (x.start === x.end ? x.start : `${x.start}-${x.end}`)).join(",")}`}`).join(", ")}`,
    `Blast radius: ${r.touched.length} declaration(s) touched, ${totalRefs} reference(s) in ${r.users.size} other file(s) (${files.length} source, ${r.users.size - files.length} test), ${r.covering.tests.size} test file(s) covering${partial.length > 0 ? "; PARTIAL (see below)" : " (complete)"}.`,
  ];
  if (r.touched.length > 0) out.push("Touched:");
  for (const t of r.touched)
    out.push(
      `  ${t.symbol}  ${t.file}:${t.line}  ${t.references} reference(s)${t.callers.length > 0 ? `; called by ${t.callers.slice(0, 8).join(", ")}${t.callers.length > 8 ? ` +${t.callers.length - 8}` : ""}` : ""}`,
    );
  if (files.length > 0) out.push("Affected files, riskiest first:");
  for (const [file, u] of files)
    out.push(`  ${file}  ${u.references} use(s) of ${[...u.symbols].join(", ")}${reached.has(file) ? "" : "  (no test reaches it)"}`);
  const tests = [...r.covering.tests].sort((a, b) => b[1].direct.length - a[1].direct.length || (a[0] < b[0] ? -1 : 1));
  out.push(tests.length === 0 ? "Tests covering: none found (no test file imports the changed files or their users)." : "Tests covering:");
  for (const [test, t] of tests)
    out.push(
      `  ${test}${t.direct.length > 0 ? `  imports ${t.direct.join(", ")}` : ""}${t.through.length > 0 ? `  through ${t.through.join(", ")}` : ""}`,
    );
  if (r.covering.unknown > 0) out.push(`${r.covering.unknown} test file(s) could not be checked.`);
  for (const t of partial) out.push(`Partial: references of ${t.symbol}: ${t.partial}`);
  out.push(...r.notes);
  return out.join("\n");
}
