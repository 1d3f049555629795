// refactorAnalyze: what can be done to a selection: the refactorings the language server offers
// there (extract function/constant/type, move to file, inline, convert), and those it offers but
// cannot do for this selection with its reason, from the server that has them (tsgo has none:
// typescript-language-server is asked).
import * as v from "valibot";
import { defineTool } from "../platform/define-tool.ts";
import { fallbackNote, refactorsAt, selectionFields } from "./refactor-actions.ts";

export default defineTool({
  name: "refactorAnalyze",
  title: "Refactorings available here",
  description:
    "Lists the refactorings a language server offers for a selection (extract function/constant/type, move to file, inline, convert), and why others are unavailable.",
  searchHint: "what refactorings can I do here: refactor options, extract function, inline, move to file",
  input: v.strictObject(selectionFields),
  annotations: { readOnlyHint: true },
  slim: true,
  timeoutMs: 120_000,
  async handler(input, ctx) {
    const at = await refactorsAt(input, ctx);
    const by = `${at.doc.server.serverName}${fallbackNote(at)}`;
    const offered = at.actions.filter((a) => a.disabled === undefined);
    const disabled = at.actions.filter((a) => a.disabled !== undefined);
    if (offered.length === 0 && disabled.length === 0)
      return `No refactoring offered for ${at.doc.relative} ${at.where} (${by}). Select a whole expression or whole statements (startColumn/endColumn).`;
    const lines = [`${offered.length} refactoring${offered.length === 1 ? "" : "s"} for ${at.doc.relative} ${at.where} (${by}):`];
    for (const a of offered) lines.push(`  ${a.kind}: "${a.title}"`);
    if (disabled.length > 0) {
      lines.push("Not available for this selection:");
      for (const a of disabled) lines.push(`  ${a.kind}: "${a.title}" (${a.disabled?.reason})`);
    }
    if (offered.length > 0) lines.push("Preview one with refactorPreview (same selection, title); extract with refactorExtractFunction.");
    return lines.join("\n");
  },
});
