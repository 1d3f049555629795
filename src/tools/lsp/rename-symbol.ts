// renameSymbol: renames a symbol everywhere it is used, in every file at once or in none
// (src/lsp/apply-edit.ts). Before the server is asked, its references are verified against a text
// search of the name (src/services/language/verified-references.ts), which loads every project
// that uses the symbol, so the rename reaches them all; a rename that still misses a file holding a
// reference, or whose check is partial, is only shown, never written. The errors are compared over
// every file that mentions the old or the new name (not only the edited and open ones) and, once
// written, counted again on the files as written after the server caught up, and by the
// language's own checker (tsgo per tsconfig project, pyright's CLI, go vet) before and after the
// write (checked-apply.ts).
import * as v from "valibot";
import type { Location, TextDocumentEdit, TextEdit, WorkspaceEdit } from "vscode-languageserver-protocol";
import { ToolError } from "../../errors.ts";
import { MAX_DOCUMENT_BYTES } from "../../lsp/lsp-service.ts";
import { splitLines } from "../../lsp/positions.ts";
import { ServerRefusal } from "../../lsp/server-refusal.ts";
import { wholeWordMentions } from "../../services/language/mentions.ts";
import { verifiedReferences } from "../../services/language/verified-references.ts";
import type { ToolContext } from "../../capabilities/context.ts";
import { defineTool } from "../platform/define-tool.ts";
import { openAt } from "./at-position.ts";
import { applyChecked, filesOfEdit, pathsOf, startCheck } from "./checked-apply.ts";
import { coverageLines } from "./coverage-lines.ts";
import { editFields } from "./edit-fields.ts";
import { renderOutcome } from "./edit-outcome.ts";
import { positionFields } from "./position-input.ts";
import { renamePreviewViaVsCode } from "./vscode/rename.ts";
import { EDIT_PROTOCOL_VERSION } from "../../extension/protocol-edit.ts";

const METHOD = "textDocument/rename";

export default defineTool({
  name: "renameSymbol",
  title: "Rename symbol",
  description:
    "Renames a symbol and every use of it across the project (all files or none), checked against a text search of the name, with the diff and the errors it introduces or fixes.",
  searchHint: "rename symbol rename variable function class method refactor all usages across files",
  input: v.strictObject({
    ...positionFields,
    newName: v.pipe(v.string(), v.minLength(1), v.description("The new name.")),
    ...editFields,
  }),
  annotations: { readOnlyHint: false, destructiveHint: false },
  timeoutMs: 180_000,
  slim: true,
  // VS Code previews (what its F2 would do); the write is the bridge's, after its references are verified.
  viaExtension: renamePreviewViaVsCode,
  viaExtensionWhen: (input) => input.dryRun,
  extensionProtocol: EDIT_PROTOCOL_VERSION,
  async handler(input, ctx) {
    const at = await openAt(input, ctx, { method: METHOD });
    // The new name's mentions (the files a rename to it can break) are searched beside the references' check.
    const [refs, newMentions] = await Promise.all([
      verifiedReferences(ctx, at.doc, { name: at.name, params: at.params, includeDeclaration: true }),
      wholeWordMentions(ctx, input.newName),
    ]);
    const mentions = [...refs.mentions.files.keys(), ...newMentions.files.keys()];
    // The files a rename can break are known now: the checker's run over them as they are goes beside the server's rename.
    const started = input.dryRun ? undefined : await startCheck(ctx, at.doc.server, { languageId: at.doc.languageId, files: mentions });
    let answer: Awaited<ReturnType<typeof at.doc.wholeProject<WorkspaceEdit | null>>>;
    try {
      answer = await at.doc.wholeProject<WorkspaceEdit | null>(METHOD, { ...at.params, newName: input.newName });
    } catch (err) {
      // Servers refuse with a message that says why ("You cannot rename this element").
      if (err instanceof ServerRefusal) {
        throw new ToolError("not_supported", `Cannot rename \`${at.name}\`: ${err.reason}`, {
          suggestion: "Check the line and symbol (prepareRename says what can be renamed).",
        });
      }
      throw err;
    }
    if (answer.value === null)
      throw new ToolError(
        "not_supported",
        `${at.doc.server.serverName} cannot rename \`${at.name}\` at ${at.doc.relative}:${at.position.line + 1}`,
        { suggestion: "Check the line and symbol (prepareRename says what can be renamed)." },
      );
    const renamed = await filesOfEdit(ctx, answer.value);
    // pyright renames only in the files of its `include`, though it finds the references in the
    // tests opened to check them: the references of the files its rename leaves out are added
    // from its own reference list, each only where the text there is exactly the old name.
    const completed = await withMissedReferences(ctx, answer.value, {
      refs: refs.locations,
      renamed,
      name: at.name,
      newName: input.newName,
    });
    const edited = await filesOfEdit(ctx, completed.edit);
    const why = [
      ...(refs.coverage.complete ? [] : [refs.coverage.why ?? "not every file that uses it was checked"]),
      ...(answer.complete ? [] : [answer.why ?? "the server was not ready"]),
      ...(completed.unmatched.length > 0
        ? [
            `the server's rename leaves out ${completed.unmatched.length} reference(s) whose text is not \`${at.name}\` (${completed.unmatched.slice(0, 5).join(", ")})`,
          ]
        : []),
    ];
    const users = await pathsOf(ctx, mentions);
    const dryRun = input.dryRun || why.length > 0;
    // What gets written is checked by the language's own checker too, before and after.
    const outcome = await applyChecked(ctx, at.doc.server, {
      edit: completed.edit,
      languageId: at.doc.languageId,
      mentions,
      ...(started === undefined ? {} : { started }),
      dryRun,
      onlyIfNoNewErrors: input.onlyIfNoNewErrors,
      signal: ctx.signal,
      alsoCheck: users,
      expectDigest: input.preview,
    });
    if (why.length > 0 && !input.dryRun) outcome.heldBack = `${why.join("; ")}, so uses may be missing`;
    const text = await renderOutcome(outcome, {
      done: `Renamed \`${at.name}\` to \`${input.newName}\``,
      would: `Would rename \`${at.name}\` to \`${input.newName}\``,
      server: at.doc.server.serverName,
    });
    const added =
      completed.added.length > 0
        ? [
            `Added to the server's rename: the references it found in ${completed.added.length} file(s) its rename left out (${completed.added.slice(0, 8).join(", ")}).`,
          ]
        : [];
    const notRenamed = coverageLines(
      { ...refs.coverage, alsoMentioned: refs.coverage.alsoMentioned.filter((a) => !edited.has(a.file)) },
      at.name,
    );
    return [`${at.note}${input.dryRun && why.length > 0 ? `PARTIAL: ${why.join("; ")}.\n` : ""}${text}`, ...added, ...notRenamed].join(
      "\n",
    );
  },
});

/**
 * The rename with the references of the files it does not touch at all: each reference's range
 * replaced by the new name where the file's text there is exactly the old name; the others are
 * returned as unmatched (`file:line`), and the rename is then not written.
 */
async function withMissedReferences(
  ctx: ToolContext,
  edit: WorkspaceEdit,
  opts: { refs: readonly Location[]; renamed: ReadonlySet<string>; name: string; newName: string },
): Promise<{ edit: WorkspaceEdit; added: string[]; unmatched: string[] }> {
  const byFile = new Map<string, { uri: string; edits: TextEdit[] }>();
  const unmatched: string[] = [];
  for (const ref of opts.refs) {
    const path = await ctx.lsp.pathOf(ref.uri);
    if (path === undefined) continue;
    const file = ctx.fs.relative(path);
    if (opts.renamed.has(file)) continue;
    const lines = splitLines(await ctx.fs.readResolvedText(path, { maxBytes: MAX_DOCUMENT_BYTES }).catch(() => ""));
    const { start, end } = ref.range;
    const text = start.line === end.line ? (lines[start.line] ?? "").slice(start.character, end.character) : undefined;
    if (text !== opts.name) {
      unmatched.push(`${file}:${start.line + 1}`);
      continue;
    }
    const entry = byFile.get(file) ?? { uri: ref.uri, edits: [] };
    entry.edits.push({ range: ref.range, newText: opts.newName });
    byFile.set(file, entry);
  }
  if (byFile.size === 0 || unmatched.length > 0) return { edit, added: [], unmatched };
  const extra: TextDocumentEdit[] = [...byFile.values()].map((f) => ({ textDocument: { uri: f.uri, version: null }, edits: f.edits }));
  const combined: WorkspaceEdit =
    edit.documentChanges !== undefined
      ? { documentChanges: [...edit.documentChanges, ...extra] }
      : { changes: { ...edit.changes, ...Object.fromEntries([...byFile.values()].map((f) => [f.uri, f.edits])) } };
  return { edit: combined, added: [...byFile.keys()], unmatched };
}
