// The one shape of "an edit of one file" that previewEdit and stageEdit take, and that editText and
// replaceBlock are each one form of: line/column `edits`, or `oldContent` -> `newContent`, or the
// whole new `content`. Flat optional fields rather than a union, because Claude Code flattens
// combinators at the root of an input schema; exactly one form must be given.
import * as v from "valibot";
import { ToolError } from "../../errors.ts";
import { findBlock } from "./find-block.ts";
import { applyLineEdits, LineEdit } from "./line-edits.ts";
import { fitLineBreaks, type TextDocument } from "../../services/documents/text-document.ts";

export const MAX_EDITS = 200;

export const EditFields = {
  edits: v.optional(v.pipe(v.array(LineEdit), v.minLength(1), v.maxLength(MAX_EDITS), v.description("Edits as editText takes them."))),
  oldContent: v.optional(v.pipe(v.string(), v.description("Exact text to replace."))),
  newContent: v.optional(v.pipe(v.string(), v.description("What replaces oldContent."))),
  occurrence: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.description("Which occurrence (1-based)."))),
  replaceAll: v.optional(v.pipe(v.boolean(), v.description("Replace every occurrence of oldContent."))),
  content: v.optional(v.pipe(v.string(), v.description("Whole new file content."))),
};

export interface EditOperation {
  edits?: LineEdit[] | undefined;
  oldContent?: string | undefined;
  newContent?: string | undefined;
  occurrence?: number | undefined;
  replaceAll?: boolean | undefined;
  content?: string | undefined;
}

/** The document's text after the operation. */
export function applyOperation(doc: TextDocument, op: EditOperation): string {
  const forms = [op.edits !== undefined, op.oldContent !== undefined || op.newContent !== undefined, op.content !== undefined].filter(
    Boolean,
  ).length;
  if (forms !== 1) {
    throw new ToolError("invalid_arguments", forms === 0 ? "No edit given" : "More than one form of edit given", {
      suggestion: "Give exactly one of: edits (line/column), oldContent with newContent, or content (the whole file).",
    });
  }
  if (op.edits !== undefined) return applyLineEdits(doc.text, op.edits, { toFileEol: (t) => fitLineBreaks(doc, t) });
  if (op.content !== undefined) return fitLineBreaks(doc, op.content);
  return replaceBlockIn(doc, { ...op, oldContent: op.oldContent ?? "" });
}

export function replaceBlockIn(
  doc: TextDocument,
  edit: { oldContent: string; newContent?: string | undefined; occurrence?: number | undefined; replaceAll?: boolean | undefined },
): string {
  const { oldContent, newContent } = edit;
  if (newContent === undefined)
    throw new ToolError("invalid_arguments", "oldContent given without newContent", {
      suggestion: 'Pass newContent too ("" deletes the block).',
    });
  const block = fitLineBreaks(doc, oldContent);
  const replacement = fitLineBreaks(doc, newContent);
  const at = findBlock(doc, block, edit);
  let out = "";
  let from = 0;
  for (const start of at) {
    out += doc.text.slice(from, start) + replacement;
    from = start + block.length;
  }
  return out + doc.text.slice(from);
}
