// A proposed edit shown to the language server that handles its files, never written: the errors
// it would introduce and fix, compared over the edited files, the files open in the server, and the
// files that import an edited one (found by a whole-word search of its module name), so a broken
// caller in another file counts. What the server was shown is put back (src/lsp/apply-edit.ts).
import type { ToolContext } from "../../capabilities/context.ts";
import type { EditOutcome } from "../../lsp/apply-edit.ts";
import type { LanguageServer } from "../../lsp/language-server.ts";
import { basename } from "../../lib/paths/posix-path.ts";
import type { WorkspacePath } from "../../security/jail/workspace-path.ts";
import { openDocument } from "../language/open-document.ts";
import { includersFinder } from "../language/includers.ts";
import { wholeWordMentions } from "../language/mentions.ts";
import type { EditedFiles } from "./proposed-edits.ts";

interface Check {
  server: LanguageServer;
  outcome: EditOutcome;
  /** Edited files the server does not handle: their errors are not known. */
  unchecked: string[];
}

/**
 * The server of the first edited file, with every edited file it handles synced from disk, so the
 * edit applies to what it has. Files of another language are edited but not checked by it (said).
 */
export async function serverFor(ctx: ToolContext, files: EditedFiles): Promise<{ server: LanguageServer; unchecked: string[] }> {
  const server = (await openDocument(files.first() ?? ".", ctx, { method: "textDocument/didOpen" })).server;
  const unchecked: string[] = [];
  for (const path of files.paths()) {
    const language = ctx.lsp.languageOf(ctx.fs.relative(path));
    if (language !== undefined && server.launch.spec.languages.includes(language)) await server.sync(path, language);
    else unchecked.push(ctx.fs.relative(path));
  }
  return { server, unchecked };
}

/** The files that may use what the edited files export: those mentioning an edited file's module name. */
export async function usersOf(ctx: ToolContext, edited: readonly WorkspacePath[]): Promise<WorkspacePath[]> {
  const out = new Set<WorkspacePath>();
  for (const path of edited) {
    const stem = basename(path).replace(/\.[^.]+$/, "");
    if (stem === "" || stem === "index" || stem === "__init__") continue;
    const mentions = await wholeWordMentions(ctx, stem);
    for (const file of mentions.files.keys()) {
      const found = await ctx.fs.resolve(file).catch(() => undefined);
      if (found !== undefined && !edited.includes(found)) out.add(found);
    }
  }
  return [...out];
}

export async function simulate(ctx: ToolContext, files: EditedFiles, opts: { users: readonly WorkspacePath[] }): Promise<Check> {
  const { server, unchecked } = await serverFor(ctx, files);
  const outcome = await ctx.lsp.applyEdit(server, files.workspaceEdit(), {
    dryRun: true,
    onlyIfNoNewErrors: false,
    signal: ctx.signal,
    alsoCheck: opts.users,
    includersOf: includersFinder(ctx, server),
  });
  // Files whose errors the server could not predict are as unknown as those it does not handle.
  return { server, outcome, unchecked: [...unchecked, ...(outcome.blind?.files ?? [])] };
}
