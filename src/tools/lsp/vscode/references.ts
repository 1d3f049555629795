// findReferences through VS Code (vscode.executeReferenceProvider), held to the headless rule that
// "complete" means verified: VS Code's language features answer from the projects they have loaded
// (tsserver those of the files open so far), so the answer is checked against a whole-word text
// search of the name. Files of the same language that mention it outside the answer are opened in
// VS Code (in memory, as readDocument does), which loads their projects, and the question asked
// again; what could not be checked in the budget makes the answer partial, named, and mentions
// outside it are listed. VS Code's command always counts the declaration; without it, the places
// its definition provider names are left out.
import type { ToolContext } from "../../../capabilities/context.ts";
import { fromFileUri } from "../../../lib/paths/file-uri.ts";
import { basename } from "../../../lib/paths/posix-path.ts";
import type { PositionInput } from "../../../lsp/positions.ts";
import { coverageOf, type Coverage } from "../../../services/language/verified-references.ts";
import { wholeWordMentions, type Mentions } from "../../../services/language/mentions.ts";
import { coverageLines, partialLine, status } from "../coverage-lines.ts";
import { renderPlaces, sortPlaces, type Place } from "../locations.ts";
import type { Verbosity } from "../position-input.ts";
import { askFeature, placeInVsCode, vsCodeSources, type VsCodeAt } from "./places.ts";

/** Files opened in VS Code to check them, per answer, in batches; and the time the checking may take. */
const MAX_OPENED = 48;
const BATCH = 12;
const VERIFY_MS = 30_000;
const MAX_NAMED = 8;

interface ReferencesInput extends PositionInput {
  file: string;
  includeDeclaration: boolean;
  verbosity: Verbosity;
  maxResults: number;
}

export async function referencesViaVsCode(input: ReferencesInput, ctx: ToolContext): Promise<string> {
  const at = await placeInVsCode(input, ctx);
  const { places: found, coverage } = await verifiedInVsCode(at, ctx);
  let places = found;
  if (!input.includeDeclaration) {
    const declared = await askFeature(at, ctx, { feature: "definition" });
    const spots = new Set((declared.places ?? []).map((p) => `${p.uri}:${p.range.start.line}:${p.range.start.character}`));
    places = places.filter((p) => !spots.has(`${p.uri}:${p.range.start.line}:${p.range.start.character}`));
  }
  const head = `${at.note}${partialLine(coverage)}`;
  const tail = coverageLines(coverage, at.name);
  if (places.length === 0) return [`${head}No references to \`${at.name}\` found (VS Code, ${status(coverage)}).`, ...tail].join("\n");
  const files = new Set(places.map((p) => p.uri)).size;
  const shown = places.slice(0, input.maxResults);
  const lines = await renderPlaces(shown, { sources: vsCodeSources(ctx), verbosity: input.verbosity });
  const more = places.length > shown.length ? [`… ${places.length - shown.length} more; raise maxResults (up to 5000) to see them.`] : [];
  const count = `${places.length} reference${places.length === 1 ? "" : "s"} to \`${at.name}\` in ${files} file${files === 1 ? "" : "s"}`;
  return [`${head}${count} (VS Code, ${status(coverage)}):`, ...lines, ...more, ...tail].join("\n");
}

async function verifiedInVsCode(at: VsCodeAt, ctx: ToolContext): Promise<{ places: Place[]; coverage: Coverage }> {
  const ask = async () => sortPlaces((await askFeature(at, ctx, { feature: "references" })).places ?? []);
  const [first, mentions] = await Promise.all([ask(), wholeWordMentions(ctx, at.name)]);
  let places = first;
  let inAnswer = await filesOf(places, ctx);
  // The files VS Code's features for this file's language would answer about.
  const language = ctx.lsp.languageOf(at.relative);
  const sameLanguage = (file: string) =>
    language !== undefined ? ctx.lsp.languageOf(file) === language : extensionOf(file) === extensionOf(at.relative);
  const checked = new Set<string>([at.relative]);
  const unopenable: string[] = [];
  const unexplained = () => [...mentions.files.keys()].filter((f) => sameLanguage(f) && !inAnswer.has(f) && !checked.has(f));
  const started = Date.now();
  let opened = 0;
  for (let left = unexplained(); left.length > 0 && opened < MAX_OPENED; left = unexplained()) {
    if (ctx.signal.aborted || Date.now() - started > VERIFY_MS) break;
    const batch = left.slice(0, Math.min(BATCH, MAX_OPENED - opened));
    ctx.progress(opened, { message: `opening ${left.length} file(s) in VS Code that mention ${at.name} outside its answer` });
    await Promise.all(
      batch.map(async (file) => {
        checked.add(file);
        try {
          const filePath = await ctx.fs.resolve(file);
          await ctx.extension.request("extension/readDocument", { filePath }, { signal: ctx.signal });
          opened += 1;
        } catch {
          unopenable.push(file);
        }
      }),
    );
    places = await ask();
    inAnswer = await filesOf(places, ctx);
  }
  const notChecked = [...unexplained(), ...unopenable.filter((f) => !inAnswer.has(f))];
  const why = reasons(notChecked, mentions, at.name);
  return { places, coverage: coverageOf(mentions, { why, inAnswer, first: sameLanguage, opened }) };
}

function reasons(notChecked: readonly string[], mentions: Mentions, name: string): string | undefined {
  const parts: string[] = [];
  if (notChecked.length > 0) {
    const more = notChecked.length > MAX_NAMED ? ` and ${notChecked.length - MAX_NAMED} more` : "";
    parts.push(
      `${notChecked.length} file(s) that mention \`${name}\` were not checked in VS Code (${notChecked.slice(0, MAX_NAMED).join(", ")}${more}): its language features may not have loaded their projects, so uses there may be missing`,
    );
  }
  if (mentions.failed !== undefined)
    parts.push(`the text search that checks the answer failed (${mentions.failed}), so files VS Code did not load are unknown`);
  else if (mentions.cut) parts.push("the text search that checks the answer covered only part of the workspace");
  return parts.length === 0 ? undefined : parts.join("; ");
}

/** Root-relative names of the files the places are in (inside the workspace). */
async function filesOf(places: readonly Place[], ctx: ToolContext): Promise<Set<string>> {
  const files = new Set<string>();
  for (const uri of new Set(places.map((p) => p.uri))) {
    const path = fromFileUri(uri);
    const resolved = path === undefined ? undefined : await ctx.fs.resolve(path).catch(() => undefined);
    if (resolved !== undefined) files.add(ctx.fs.relative(resolved));
  }
  return files;
}

function extensionOf(file: string): string {
  const name = basename(file);
  const dot = name.lastIndexOf(".");
  return dot <= 0 ? "" : name.slice(dot);
}
