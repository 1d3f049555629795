// The files that include one of a set of files, directly or through others, for a language server
// that reads included files from disk (clangd): what it predicts for an unsaved edit of such a file
// in its includers describes the file as it was. Found by whole-word mentions of each file's name
// (an #include names it, quoted or angled, with or without a directory), then of each includer's
// name in turn. A superset (a comment naming the file counts too), which is the safe side: a file
// counted here only loses its prediction, and is checked once the edit is written.
import type { ToolContext } from "../../capabilities/context.ts";
import type { ApplyEditOptions } from "../../lsp/apply-edit.ts";
import type { LanguageServer } from "../../lsp/language-server.ts";
import { basename } from "../../lib/paths/posix-path.ts";
import { wholeWordMentions } from "./mentions.ts";

/** Names searched at most; past it the includers are unknown. */
const MAX_NAMES_SEARCHED = 64;

/** Root-relative files of the server's languages that include one of `changed`, or undefined when that cannot be known. */
export async function includersOf(
  ctx: ToolContext,
  opts: { changed: readonly string[]; languages: readonly string[] },
): Promise<Set<string> | undefined> {
  const found = new Set<string>();
  const searched = new Set<string>();
  const queue = opts.changed.map((file) => basename(file));
  for (let name = queue.shift(); name !== undefined; name = queue.shift()) {
    if (searched.has(name)) continue;
    if (searched.size >= MAX_NAMES_SEARCHED || ctx.signal.aborted) return undefined;
    searched.add(name);
    const mentions = await wholeWordMentions(ctx, name);
    if (mentions.failed !== undefined || mentions.cut) return undefined;
    for (const file of mentions.files.keys()) {
      // A file naming itself (a comment at its top) does not include itself.
      if (basename(file) === name) continue;
      const language = ctx.lsp.languageOf(file);
      if (language === undefined || !opts.languages.includes(language) || found.has(file)) continue;
      found.add(file);
      queue.push(basename(file));
    }
  }
  return found;
}

/** An edit's `includersOf` for a call to `server`: the includers among the files of its languages. */
export function includersFinder(ctx: ToolContext, server: LanguageServer): NonNullable<ApplyEditOptions["includersOf"]> {
  return (changed) => includersOf(ctx, { changed, languages: server.launch.spec.languages });
}
