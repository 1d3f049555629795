// selectionRanges: the nested ranges "expand selection" walks through from a position (the word,
// the expression, the statement, the block, the function...), innermost first.
import * as v from "valibot";
import type { SelectionRange } from "vscode-languageserver-protocol";
import { defineTool } from "../platform/define-tool.ts";
import { openAt } from "./at-position.ts";
import { span, textOf } from "./file-fields.ts";
import { positionFields } from "./position-input.ts";

const METHOD = "textDocument/selectionRange";
/** A chain deeper than this is a server loop, not a program. */
const MAX_DEPTH = 64;

export default defineTool({
  name: "selectionRanges",
  title: "Selection ranges",
  description:
    "Lists the nested syntax ranges around a position, innermost first (word, expression, statement, block, function), as expand-selection walks them, via the language server.",
  searchHint: "selection ranges expand selection enclosing expression statement block syntax nesting around position",
  input: v.strictObject(positionFields),
  annotations: { readOnlyHint: true },
  slim: true,
  async handler(input, ctx) {
    const at = await openAt(input, ctx, { method: METHOD });
    const answer = await at.doc.request<SelectionRange[] | null>(METHOD, {
      textDocument: at.params.textDocument,
      positions: [at.params.position],
    });
    const chain: string[] = [];
    for (let r: SelectionRange | undefined = answer?.[0]; r !== undefined && chain.length < MAX_DEPTH; r = r.parent)
      chain.push(`${span(r.range)}  ${textOf(at.doc.lines, r.range)}`);
    const where = `${at.doc.relative}:${at.position.line + 1}:${at.position.character + 1}`;
    if (chain.length === 0) return `${at.note}No selection ranges at ${where} (${at.doc.server.serverName}).`;
    return `${at.note}${chain.length} nested range${chain.length === 1 ? "" : "s"} around \`${at.name}\` at ${where}, innermost first (line:col-line:col, end exclusive):\n${chain.join("\n")}`;
  },
});
