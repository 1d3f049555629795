// refactorExtractFunction: extracts a selection into a function (or a constant, a type, or moves
// it to a new file) through the language server's own refactoring, runs the command the server
// attaches to it, and applies the result atomically with the errors it introduces (or only shows
// it). Where a scope must be chosen, the outermost (module) scope is taken and the others named.
import * as v from "valibot";
import type { CodeAction } from "vscode-languageserver-protocol";
import { ToolError } from "../../errors.ts";
import { defineTool } from "../platform/define-tool.ts";
import { editFields } from "./edit-fields.ts";
import { fallbackNote, refactorsAt, selectionFields } from "./refactor-actions.ts";
import { runRefactor } from "./refactor-edit.ts";

const KINDS = {
  function: ["refactor.extract.function"],
  constant: ["refactor.extract.constant", "refactor.extract.variable"],
  type: ["refactor.extract.type", "refactor.extract.interface"],
  moveToFile: ["refactor.move.newFile", "refactor.move"],
} as const;

export default defineTool({
  name: "refactorExtractFunction",
  title: "Extract function, constant or type",
  description:
    "Extracts the selected lines or expression into a new function (or constant, type, or a new file) with the language server's refactoring; shows the diff and new errors.",
  searchHint: "extract function extract method extract constant variable extract type move to new file refactor selection",
  input: v.strictObject({
    ...selectionFields,
    kind: v.optional(
      v.pipe(v.picklist(["function", "constant", "type", "moveToFile"]), v.description("What to extract into (default function).")),
      "function",
    ),
    name: v.optional(v.pipe(v.string(), v.regex(/^[A-Za-z_$][\w$]*$/), v.description("Name of the new function, constant or type."))),
    ...editFields,
  }),
  annotations: { readOnlyHint: false, destructiveHint: false },
  slim: true,
  timeoutMs: 180_000,
  async handler(input, ctx) {
    const at = await refactorsAt(input, ctx);
    const kinds: readonly string[] = KINDS[input.kind];
    const matching = at.actions.filter((a) => kinds.some((k) => a.kind === k || a.kind?.startsWith(`${k}.`)));
    const usable = matching.filter((a) => a.disabled === undefined);
    const action: CodeAction | undefined = usable[usable.length - 1] ?? matching[0];
    if (action === undefined)
      throw new ToolError(
        "not_supported",
        `${at.doc.server.serverName}${fallbackNote(at)} offers no ${input.kind} extraction for ${at.doc.relative} ${at.where}; offered: ${at.actions.map((a) => `"${a.title}"`).join(", ") || "none"}`,
        { suggestion: "Select whole statements or a whole expression (startColumn/endColumn); refactorAnalyze lists what is offered." },
      );
    const text = await runRefactor(at, ctx, {
      action,
      dryRun: input.dryRun,
      onlyIfNoNewErrors: input.onlyIfNoNewErrors,
      expectDigest: input.preview,
      name: input.name,
    });
    const others = usable.filter((a) => a !== action).map((a) => `"${a.title}"`);
    return others.length > 0 ? `${text}\nAlso offered (pass to refactorPreview by title): ${others.join(", ")}.` : text;
  },
});
