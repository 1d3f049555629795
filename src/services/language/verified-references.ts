// "Complete" means verified. A language server answers references from the projects it has
// loaded: tsgo those of the files opened so far (a solution-style tsconfig's spec project only once
// a test is open), pyright its `include` (tests often left out), clangd the open files until its
// background index has run. So every whole-project answer is held against a whole-word text search
// of the name (mentions.ts): a file of the server's language that mentions the name but is not in
// the answer is opened in the server, and the question asked again, until every such file is either
// in the answer or was seen by the server and holds no reference (a comment, a string, another
// symbol of the same name). What could not be checked in the budget makes the answer partial, named;
// files that mention the name outside the answer are listed as "also mentioned in", so a model
// never takes a partial list for the whole one.
import type { Location } from "vscode-languageserver-protocol";
import type { ToolContext } from "../../capabilities/context.ts";
import type { LspDocument } from "../../lsp/lsp-service.ts";
import { fromFileUri } from "../../lib/paths/file-uri.ts";
import { dirname, isInside, normalize, relative } from "../../lib/paths/posix-path.ts";
import { wholeWords } from "../../lsp/positions.ts";
import { compileDatabaseNote } from "./compile-database.ts";
import { mentionedOutside, wholeWordMentions, type Mentions } from "./mentions.ts";

/** Files opened to check them, per answer: within what a server keeps open (64) with room to spare. */
const MAX_OPENED = 48;
/** Files opened before the question is asked again: one file may load a whole project and explain the rest. */
const BATCH = 12;
/** Files seen only as text whose errors are looked at (an error there may hide a use). */
const MAX_ERROR_CHECKS = 24;
/** Time the checking may take after the first answer; what is left is reported, not waited for. */
const VERIFY_MS = 30_000;

export interface Coverage {
  complete: boolean;
  /** Why not complete: what was not covered and what to do. */
  why?: string;
  /** Files that mention the name as a whole word and are not in the answer, with how many lines do. */
  alsoMentioned: { file: string; lines: number }[];
  /** How many files mention the name, and how many were opened to check them. */
  mentionedIn: number;
  opened: number;
  /** About the server's setup, said with every answer (clangd without a compilation database). */
  caveat?: string;
}

/**
 * The coverage of an answer: complete unless `why`, with the files that mention the name outside it
 * (those `first` says the answering server handles listed first).
 */
export function coverageOf(
  mentions: Mentions,
  opts: { why: string | undefined; inAnswer: ReadonlySet<string>; first: (file: string) => boolean; opened: number },
): Coverage {
  const { why } = opts;
  return {
    complete: why === undefined,
    ...(why === undefined ? {} : { why }),
    alsoMentioned: mentionedOutside(mentions, opts),
    mentionedIn: mentions.files.size,
    opened: opts.opened,
  };
}

export interface VerifiedReferences {
  locations: Location[];
  coverage: Coverage;
  /** The whole-word text search the answer was checked against. */
  mentions: Mentions;
  /** A location's root-relative file name when the text search listed it (no jail check needed for the name), else undefined. */
  searchedName(uri: string): string | undefined;
}

/**
 * The references of the symbol at `params`, asked again after opening the files that mention
 * `name` outside the answer. `includeDeclaration` is applied to the final answer only: the check
 * counts the declaration's file as explained.
 */
export async function verifiedReferences(
  ctx: ToolContext,
  doc: LspDocument,
  opts: {
    name: string;
    params: { textDocument: { uri: string }; position: { line: number; character: number } };
    includeDeclaration: boolean;
  },
): Promise<VerifiedReferences> {
  const ask = () =>
    doc.wholeProject<Location[] | null>("textDocument/references", { ...opts.params, context: { includeDeclaration: true } });
  const [first, mentions, caveat] = await Promise.all([ask(), wholeWordMentions(ctx, opts.name), compileDatabaseNote(ctx, doc)]);
  const started = Date.now();
  // The search named files from where "." resolves; only when that is the root are its names the jail's.
  const root = (await ctx.fs.resolve(".")) === ctx.fs.root ? ctx.fs.root : undefined;
  // Asked for each location's URI here and again when the answer is listed: each worked out once.
  const names = new Map<string, string | undefined>();
  const named = (uri: string) => {
    if (!names.has(uri)) names.set(uri, root === undefined ? undefined : searchedName(root, uri, mentions));
    return names.get(uri);
  };
  let answer = first;
  let inAnswer = await filesOf(ctx, answer.value ?? [], named);
  const handled = (file: string) => {
    const language = ctx.lsp.languageOf(file);
    return language !== undefined && doc.server.launch.spec.languages.includes(language);
  };
  const checked = new Set<string>([doc.relative]);
  const unopenable: string[] = [];
  const unexplained = () => [...mentions.files.keys()].filter((f) => handled(f) && !inAnswer.has(f) && !checked.has(f));
  let opened = 0;
  for (let left = unexplained(); left.length > 0 && opened < MAX_OPENED; left = unexplained()) {
    if (ctx.signal.aborted || Date.now() - started > VERIFY_MS) break;
    const batch = spread(left, Math.min(BATCH, MAX_OPENED - opened));
    ctx.progress(opened, { message: `checking ${left.length} file(s) that mention ${opts.name} outside the answer` });
    const got = await ctx.lsp.analyse(doc.server, batch, { signal: ctx.signal });
    for (const file of batch) {
      checked.add(file);
      if (!got.includes(file)) unopenable.push(file);
    }
    opened += got.length;
    answer = await ask();
    inAnswer = await filesOf(ctx, answer.value ?? [], named);
  }
  const notChecked = [...unexplained(), ...unopenable.filter((f) => !inAnswer.has(f))];
  // A file the server saw that mentions the name but is not in the answer holds no reference only
  // if the server understood it: one with errors (an include or import it cannot resolve) may hide uses.
  const seenOnly = [...checked].filter((f) => f !== doc.relative && !inAnswer.has(f) && !unopenable.includes(f));
  const withErrors = await filesWithHidingErrors(ctx, seenOnly.slice(0, MAX_ERROR_CHECKS), opts.name);
  const why = reasons({
    server: doc.server.launch.spec.id,
    serverWhy: answer.complete ? undefined : answer.why,
    notChecked,
    withErrors,
    mentions,
    name: opts.name,
  });
  const locations = opts.includeDeclaration
    ? (answer.value ?? [])
    : ((await doc.request<Location[] | null>("textDocument/references", { ...opts.params, context: { includeDeclaration: false } })) ?? []);
  return {
    locations,
    mentions,
    searchedName: named,
    coverage: {
      ...coverageOf(mentions, { why, inAnswer, first: handled, opened }),
      // The server's own reason already names the missing database (index-input.ts): not said twice.
      ...(caveat === undefined || answer.why?.includes("compile_commands.json") ? {} : { caveat }),
    },
  };
}

/**
 * For a whole-project question other than references (implementations, incoming calls, rename):
 * the references are verified first, which leaves every project that uses the symbol loaded in the
 * server, so the question asked next is answered from all of them. What it covers is the
 * references' coverage; a server without references cannot be checked, and says so.
 */
export async function loadProjectsOf(
  ctx: ToolContext,
  doc: LspDocument,
  opts: { name: string; params: { textDocument: { uri: string }; position: { line: number; character: number } } },
): Promise<Coverage> {
  if (!doc.server.supports("textDocument/references"))
    return {
      complete: false,
      why: `${doc.server.serverName} has no references request, so what it had loaded cannot be checked`,
      alsoMentioned: [],
      mentionedIn: 0,
      opened: 0,
    };
  return (await verifiedReferences(ctx, doc, { ...opts, includeDeclaration: true })).coverage;
}

/** Files larger than the text search reads (mentions.ts) are not read here either. */
const MAX_READ_BYTES = 2 * 1024 * 1024;

/**
 * What an error that can hide a use says: a name, import, include or module the server could not
 * resolve (pyright, TypeScript, clangd and gopls wordings). A type error elsewhere in the file
 * (an argument's type) does not hide a use.
 */
const UNRESOLVED = /import|include|module|resolve|cannot find|not found|undeclared|undefined|not defined|attribute|exported member/i;

/**
 * The files among `files` whose diagnostics (from a running server) include an error that may hide
 * a use of `name`: one on a line that mentions it, or one saying something could not be resolved.
 */
async function filesWithHidingErrors(ctx: ToolContext, files: readonly string[], name: string): Promise<string[]> {
  // Asked together: a push-only server analyses them in one pass rather than one after another.
  const hiding = await Promise.all(files.map((file) => hidesUse(ctx, file, name)));
  return files.filter((_, i) => hiding[i]);
}

/** Whether the file's errors (from a running server) may hide a use of `name`. */
async function hidesUse(ctx: ToolContext, file: string, name: string): Promise<boolean> {
  const found = await ctx.lsp.diagnosticsFor(file, { signal: ctx.signal, start: false }).catch(() => undefined);
  const errors = (found?.items ?? []).filter((d) => (d.severity ?? 1) === 1);
  if (errors.length === 0) return false;
  // Unreadable or past the bound: every error counts as on a mentioning line.
  const text = await ctx.fs.readText(file, { maxBytes: MAX_READ_BYTES }).catch(() => undefined);
  const lines = text?.split("\n");
  const mentionedOn = (line: number) => lines === undefined || wholeWords(lines[line] ?? "", name).length > 0;
  return errors.some((d) => {
    const message = typeof d.message === "string" ? d.message : String(d.message);
    if (UNRESOLVED.test(message)) return true;
    for (let line = d.range.start.line; line <= d.range.end.line; line++) if (mentionedOn(line)) return true;
    return false;
  });
}

/**
 * Root-relative names of the files of an answer's locations that are inside the workspace. A
 * location under the root whose name the text search listed is that file: rg lists the files it
 * reached from the root without following a symlink, so the name has none, and the jail would name
 * it the same. The others (other folders, symlinked spellings, files rg skips) go through the jail.
 * Names only: nothing is read through them. Half the jail checks of a findReferences call
 * (bench/lsp-profile.mjs, CIB_PROFILE_CALL=findReferences): the listing resolves each file again.
 */
async function filesOf(ctx: ToolContext, locations: readonly Location[], named: (uri: string) => string | undefined): Promise<Set<string>> {
  const files = new Set<string>();
  const unsure: string[] = [];
  for (const uri of new Set(locations.map((l) => l.uri))) {
    const name = named(uri);
    if (name === undefined) unsure.push(uri);
    else files.add(name);
  }
  // All at once: each is a jail check (a realpath).
  for (const path of await Promise.all(unsure.map((uri) => ctx.lsp.pathOf(uri)))) if (path !== undefined) files.add(ctx.fs.relative(path));
  return files;
}

/** The root-relative name of a file URI under `root` when the text search listed that name. */
function searchedName(root: string, uri: string, searched: Mentions): string | undefined {
  const absolute = fromFileUri(uri);
  if (absolute === undefined) return undefined;
  const path = normalize(absolute);
  if (path === root || !isInside(path, root)) return undefined;
  const name = relative(root, path);
  return searched.files.has(name) ? name : undefined;
}

/** Up to `n` files, one per directory first: files of one directory tend to be of one project, and one file loads it. */
function spread(files: readonly string[], n: number): string[] {
  const byDir = new Map<string, string[]>();
  for (const file of files) byDir.set(dirname(file), [...(byDir.get(dirname(file)) ?? []), file]);
  const out: string[] = [];
  for (let round = 0; out.length < n; round++) {
    const before = out.length;
    for (const group of byDir.values()) {
      const file = group[round];
      if (file !== undefined && out.length < n) out.push(file);
    }
    if (out.length === before) break;
  }
  return out;
}

function reasons(opts: {
  server: string;
  serverWhy: string | undefined;
  notChecked: readonly string[];
  withErrors: readonly string[];
  mentions: Mentions;
  name: string;
}): string | undefined {
  const parts: string[] = [];
  if (opts.serverWhy !== undefined) parts.push(opts.serverWhy);
  if (opts.notChecked.length > 0) {
    const shown = opts.notChecked.slice(0, 8).join(", ");
    const more = opts.notChecked.length > 8 ? ` and ${opts.notChecked.length - 8} more` : "";
    parts.push(
      `${opts.notChecked.length} file(s) that mention \`${opts.name}\` were not checked by ${opts.server} (${shown}${more}): uses there may be missing; searchWorkspace for the name lists them`,
    );
  }
  if (opts.withErrors.length > 0)
    parts.push(
      `${opts.withErrors.length} file(s) mention \`${opts.name}\` and have errors where ${opts.server} may not see its uses (an include or import it cannot resolve): ${opts.withErrors.slice(0, 8).join(", ")}; getDiagnostics shows them`,
    );
  if (opts.mentions.failed !== undefined)
    parts.push(`the text search that checks the answer failed (${opts.mentions.failed}), so files the server did not load are unknown`);
  else if (opts.mentions.cut) parts.push("the text search that checks the answer covered only part of the workspace");
  return parts.length === 0 ? undefined : parts.join("; ");
}
