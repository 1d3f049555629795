// getCodeActions, previewCodeAction and applyCodeAction through VS Code
// (vscode.executeCodeActionProvider): the light bulb's fixes and refactorings from every installed
// extension, listed as the headless answer is. The chosen action's edit comes back as data and is
// made by the bridge through its jail (src/extension/vscode-edit.ts); an action that only runs a
// VS Code command is not run, since the bridge could not see or check what it writes.
import type { ToolContext } from "../../../capabilities/context.ts";
import { ToolError } from "../../../errors.ts";
import type { WireCodeAction } from "../../../extension/protocol-edit.ts";
import { toFileUri } from "../../../lib/paths/file-uri.ts";
import { splitLines } from "../../../lsp/positions.ts";
import { pickAction, type RangeInput } from "../code-actions-at.ts";
import { vsCodeEditAnswer } from "./edit-answer.ts";

interface ActionsHere {
  relative: string;
  uri: string;
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
  span: string;
}

async function rangeInVsCode(input: RangeInput, ctx: ToolContext): Promise<ActionsHere> {
  const path = await ctx.fs.resolve(input.file);
  const relative = ctx.fs.relative(path);
  const lines = splitLines((await ctx.extension.request("extension/readDocument", { filePath: path }, { signal: ctx.signal })).text);
  const endLine = input.endLine ?? input.startLine;
  if (input.startLine > lines.length || endLine < input.startLine)
    throw new ToolError("invalid_arguments", `lines ${input.startLine}-${endLine} are not a range of ${relative} (${lines.length} lines)`, {
      suggestion: `Pass startLine <= endLine within 1-${lines.length}.`,
    });
  const last = Math.min(endLine, lines.length);
  return {
    relative,
    uri: toFileUri(path),
    range: { start: { line: input.startLine - 1, character: 0 }, end: { line: last - 1, character: (lines[last - 1] ?? "").length } },
    span: `${input.startLine}-${last}`,
  };
}

export async function codeActionsViaVsCode(input: RangeInput, ctx: ToolContext): Promise<string> {
  const here = await rangeInVsCode(input, ctx);
  const answer = await ctx.extension.request(
    "extension/codeActions",
    { uri: here.uri, range: here.range, ...(input.only ? { only: input.only } : {}) },
    { signal: ctx.signal },
  );
  const head =
    answer.diagnostics.length > 0
      ? `Diagnostics in lines ${here.span}:\n${answer.diagnostics.map((d) => `  ${here.relative}:${d.range.start.line + 1}:${d.range.start.character + 1} ${d.severity}${d.source ? ` ${d.source}` : ""}: ${d.message}`).join("\n")}\n`
      : "";
  if (answer.actions.length === 0) return `${head}No code actions for ${here.relative} lines ${here.span} (VS Code).`;
  const lines = answer.actions.map((a, i) => `${i + 1}. ${describe(a)}`);
  return `${head}${answer.actions.length} code action${answer.actions.length === 1 ? "" : "s"} for ${here.relative} lines ${here.span} (VS Code):\n${lines.join("\n")}`;
}

function describe(a: WireCodeAction): string {
  if (a.kind === undefined && a.command !== undefined) return `${a.title} (command)`;
  const flags = [a.isPreferred ? "preferred" : "", a.disabled ? `disabled: ${a.disabled}` : ""].filter((f) => f !== "");
  return `[${a.kind ?? "action"}] ${a.title}${flags.length > 0 ? ` (${flags.join(", ")})` : ""}`;
}

export async function codeActionViaVsCode(
  input: RangeInput & { title: string },
  ctx: ToolContext,
  opts: { dryRun: boolean; expectDigest?: string | undefined },
): Promise<string> {
  const here = await rangeInVsCode(input, ctx);
  const only = input.only ? { only: input.only } : {};
  const listed = await ctx.extension.request(
    "extension/codeActions",
    { uri: here.uri, range: here.range, ...only },
    { signal: ctx.signal },
  );
  const action = pickAction(listed.actions, { title: input.title, where: `${here.relative} lines ${here.span}` });
  if (action.disabled !== undefined)
    throw new ToolError("not_supported", `"${action.title}" is offered but disabled: ${action.disabled}`, {
      suggestion: "Pick another action from getCodeActions.",
    });
  const answer = await ctx.extension.request(
    "extension/codeActionEdit",
    { uri: here.uri, range: here.range, ...only, index: listed.actions.indexOf(action), title: action.title },
    { signal: ctx.signal },
  );
  if (answer.edit === null) {
    if (answer.command !== undefined)
      throw new ToolError(
        "not_supported",
        `"${action.title}" runs VS Code's command ${answer.command} instead of giving an edit; the bridge does not run it, since it could not check what it writes`,
        {
          suggestion:
            "Apply it in VS Code yourself (the light bulb), or disconnect the extension to have the bridge's language server do it.",
        },
      );
    return `"${action.title}" changes no file (VS Code gave no edit for it).`;
  }
  const text = await vsCodeEditAnswer(ctx, answer.edit, {
    what: `the code action "${action.title}"`,
    done: `Applied "${action.title}"`,
    would: `Would apply "${action.title}"`,
    none: `"${action.title}" changes no file (VS Code).`,
    dryRun: opts.dryRun,
    expectDigest: opts.expectDigest,
  });
  // An action with an edit and a command: the edit is made, the command (often a rename prompt) is not run.
  return answer.command === undefined
    ? text
    : `${text}\nNOTE: VS Code would also run its command ${answer.command} after the edit; the bridge does not.`;
}
