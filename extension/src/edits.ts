// The protocol-1.3 requests (src/extension/protocol-edit.ts): signature help, type hierarchy,
// rename, code actions and formatting from VS Code's providers. Edits are returned as data, never
// applied here: the bridge checks every file against its workspace jail and writes them itself.
import * as vscode from "vscode";
import type { ParamsOf, ResultOf } from "../../src/extension/protocol.ts";
import type { WireCodeAction, WireEdit } from "../../src/extension/protocol-edit.ts";
import { wireDiagnostic, wireRange } from "./convert.ts";
import { Failure } from "./failure.ts";

type R<M extends keyof EditHandlers> = ReturnType<EditHandlers[M]>;
interface EditHandlers {
  "extension/signatureHelp": (p: ParamsOf<"extension/signatureHelp">) => Promise<ResultOf<"extension/signatureHelp">>;
  "extension/typeHierarchy": (p: ParamsOf<"extension/typeHierarchy">) => Promise<ResultOf<"extension/typeHierarchy">>;
  "extension/prepareRename": (p: ParamsOf<"extension/prepareRename">) => Promise<ResultOf<"extension/prepareRename">>;
  "extension/rename": (p: ParamsOf<"extension/rename">) => Promise<ResultOf<"extension/rename">>;
  "extension/codeActions": (p: ParamsOf<"extension/codeActions">) => Promise<ResultOf<"extension/codeActions">>;
  "extension/codeActionEdit": (p: ParamsOf<"extension/codeActionEdit">) => Promise<ResultOf<"extension/codeActionEdit">>;
  "extension/format": (p: ParamsOf<"extension/format">) => Promise<ResultOf<"extension/format">>;
}

const pos = (p: { line: number; character: number }) => new vscode.Position(p.line, p.character);
const range = (r: { start: { line: number; character: number }; end: { line: number; character: number } }) =>
  new vscode.Range(pos(r.start), pos(r.end));
const text = (s: string | vscode.MarkdownString | undefined) => (s === undefined ? undefined : typeof s === "string" ? s : s.value);

async function signatureHelp(p: ParamsOf<"extension/signatureHelp">): R<"extension/signatureHelp"> {
  const help = await vscode.commands.executeCommand<vscode.SignatureHelp | undefined>(
    "vscode.executeSignatureHelpProvider",
    vscode.Uri.parse(p.uri),
    pos(p.position),
  );
  if (help === undefined) return { signatures: [], activeSignature: 0 };
  return {
    signatures: help.signatures.map((s) => {
      const doc = text(s.documentation);
      return {
        label: s.label,
        ...(doc ? { documentation: doc } : {}),
        parameters: s.parameters.map((q) => {
          const label = typeof q.label === "string" ? q.label : s.label.slice(q.label[0], q.label[1]);
          const d = text(q.documentation);
          return d ? { label, documentation: d } : { label };
        }),
        ...(s.activeParameter === undefined ? {} : { activeParameter: s.activeParameter }),
      };
    }),
    activeSignature: help.activeSignature,
    activeParameter: help.activeParameter,
  };
}

async function typeHierarchy(p: ParamsOf<"extension/typeHierarchy">): R<"extension/typeHierarchy"> {
  const items =
    (await vscode.commands.executeCommand<vscode.TypeHierarchyItem[] | undefined>(
      "vscode.prepareTypeHierarchy",
      vscode.Uri.parse(p.uri),
      pos(p.position),
    )) ?? [];
  const root = items[0];
  if (root === undefined) return { supertypes: [], subtypes: [] };
  const ask = async (command: string) =>
    p.directions.includes(command === "vscode.provideSupertypes" ? "supertypes" : "subtypes")
      ? ((await vscode.commands.executeCommand<vscode.TypeHierarchyItem[] | undefined>(command, root)) ?? []).map(item)
      : [];
  return { root: item(root), supertypes: await ask("vscode.provideSupertypes"), subtypes: await ask("vscode.provideSubtypes") };
}

function item(t: vscode.TypeHierarchyItem) {
  const name = vscode.SymbolKind[t.kind] ?? "symbol";
  return {
    name: t.name,
    kind: name.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase(),
    uri: t.uri.toString(),
    range: wireRange(t.selectionRange),
  };
}

async function prepareRename(p: ParamsOf<"extension/prepareRename">): R<"extension/prepareRename"> {
  try {
    const answer = await vscode.commands.executeCommand<{ range: vscode.Range; placeholder: string } | vscode.Range | undefined>(
      "vscode.prepareRename",
      vscode.Uri.parse(p.uri),
      pos(p.position),
    );
    if (answer === undefined) return { refused: "no rename provider answers for this position" };
    return answer instanceof vscode.Range
      ? { range: wireRange(answer) }
      : { range: wireRange(answer.range), placeholder: answer.placeholder };
  } catch (err) {
    // Providers refuse with an error that says why ("You cannot rename this element").
    return { refused: err instanceof Error ? err.message : String(err) };
  }
}

async function rename(p: ParamsOf<"extension/rename">): R<"extension/rename"> {
  const edit = await vscode.commands.executeCommand<vscode.WorkspaceEdit | undefined>(
    "vscode.executeDocumentRenameProvider",
    vscode.Uri.parse(p.uri),
    pos(p.position),
    p.newName,
  );
  return { edit: edit === undefined ? null : wireEdit(edit) };
}

/** VS Code's code actions for a range; the edits of the first `resolve` are resolved. */
async function actionsAt(p: ParamsOf<"extension/codeActions">, resolve: number): Promise<(vscode.CodeAction | vscode.Command)[]> {
  const kind = p.only?.[0];
  return (
    (await vscode.commands.executeCommand<(vscode.CodeAction | vscode.Command)[] | undefined>(
      "vscode.executeCodeActionProvider",
      vscode.Uri.parse(p.uri),
      range(p.range),
      kind,
      resolve,
    )) ?? []
  ).filter((a) => p.only === undefined || p.only.length < 2 || isCommand(a) || p.only.some((k) => a.kind?.value.startsWith(k)));
}

function isCommand(a: vscode.CodeAction | vscode.Command): a is vscode.Command {
  return typeof (a as vscode.Command).command === "string";
}

async function codeActions(p: ParamsOf<"extension/codeActions">): R<"extension/codeActions"> {
  const uri = vscode.Uri.parse(p.uri);
  const r = range(p.range);
  const actions = (await actionsAt(p, 0)).map((a): WireCodeAction => {
    if (isCommand(a)) return { title: a.title, command: a.command };
    return {
      title: a.title,
      ...(a.kind ? { kind: a.kind.value } : {}),
      ...(a.isPreferred ? { isPreferred: true } : {}),
      ...(a.disabled ? { disabled: a.disabled.reason } : {}),
      ...(a.command ? { command: a.command.command } : {}),
    };
  });
  const diagnostics = vscode.languages
    .getDiagnostics(uri)
    .filter((d) => d.range.intersection(r) !== undefined || (d.range.start.line <= r.end.line && d.range.end.line >= r.start.line))
    .map((d) => {
      const w = wireDiagnostic(d);
      return { range: w.range, severity: w.severity, message: w.message, ...(w.source === undefined ? {} : { source: w.source }) };
    });
  return { actions, diagnostics };
}

async function codeActionEdit(p: ParamsOf<"extension/codeActionEdit">): R<"extension/codeActionEdit"> {
  const actions = await actionsAt(p, p.index + 1);
  const action = actions[p.index];
  if (action === undefined || action.title !== p.title)
    throw new Failure(
      "code_action_not_found",
      `VS Code no longer offers "${p.title}" there (the file or its diagnostics changed)`,
      "Call getCodeActions again and pick from what it lists now.",
    );
  if (isCommand(action)) return { edit: null, command: action.command };
  return { edit: action.edit === undefined ? null : wireEdit(action.edit), ...(action.command ? { command: action.command.command } : {}) };
}

async function format(p: ParamsOf<"extension/format">): R<"extension/format"> {
  const uri = vscode.Uri.parse(p.uri);
  const doc = await vscode.workspace.openTextDocument(uri);
  // The options the user's editor formats this document with (VS Code's settings for its language).
  const editor = vscode.workspace.getConfiguration("editor", doc);
  const options = { tabSize: editor.get<number>("tabSize", 4), insertSpaces: editor.get<boolean>("insertSpaces", true) };
  // undefined (not []) when no formatter handles the document.
  const found =
    p.range === undefined
      ? await vscode.commands.executeCommand<vscode.TextEdit[] | undefined>("vscode.executeFormatDocumentProvider", uri, options)
      : await vscode.commands.executeCommand<vscode.TextEdit[] | undefined>(
          "vscode.executeFormatRangeProvider",
          uri,
          range(p.range),
          options,
        );
  const edits = found ?? [];
  return {
    formatter: found !== undefined,
    edit: {
      files:
        edits.length === 0 ? [] : [{ uri: uri.toString(), edits: edits.map((e) => ({ range: wireRange(e.range), newText: e.newText })) }],
      dirty: doc.isDirty ? [uri.toString()] : [],
      fileOperations: false,
    },
  };
}

function wireEdit(edit: vscode.WorkspaceEdit): WireEdit {
  const entries = edit.entries();
  const files = entries.map(([uri, edits]) => ({
    uri: uri.toString(),
    edits: edits.map((e) => ({ range: wireRange(e.range), newText: e.newText })),
  }));
  const open = new Map(vscode.workspace.textDocuments.map((d) => [d.uri.toString(), d]));
  return {
    files,
    dirty: files.filter((f) => open.get(f.uri)?.isDirty === true).map((f) => f.uri),
    // `size` counts file operations too, which entries() does not list.
    fileOperations: edit.size > entries.length,
  };
}

export const editHandlers: EditHandlers = {
  "extension/signatureHelp": signatureHelp,
  "extension/typeHierarchy": typeHierarchy,
  "extension/prepareRename": prepareRename,
  "extension/rename": rename,
  "extension/codeActions": codeActions,
  "extension/codeActionEdit": codeActionEdit,
  "extension/format": format,
};
