// The bridge's language-feature questions answered by VS Code's providers (vscode.execute*Provider):
// what the user's installed extensions say, in the protocol's shapes, for the bridge's
// code-navigation and code-intelligence tools to render as their headless answers are.
import * as vscode from "vscode";
import type { ParamsOf, ResultOf, WireCall, WireSymbol } from "../../src/extension/protocol.ts";
import { wireRange } from "./convert.ts";
import { Failure } from "./failure.ts";

type Params = ParamsOf<"extension/languageFeature">;
type Result = ResultOf<"extension/languageFeature">;

const LOCATION_COMMANDS: Readonly<Record<string, string>> = {
  definition: "vscode.executeDefinitionProvider",
  declaration: "vscode.executeDeclarationProvider",
  typeDefinition: "vscode.executeTypeDefinitionProvider",
  implementation: "vscode.executeImplementationProvider",
  references: "vscode.executeReferenceProvider",
};

/** At most this many calls in one walk, whatever the bridge asks (each level is a provider round). */
const MAX_CALLS = 500;

export async function languageFeature(p: Params): Promise<Result> {
  const command = LOCATION_COMMANDS[p.feature];
  if (command !== undefined) {
    const { uri, position } = at(p);
    const found = await vscode.commands.executeCommand<(vscode.Location | vscode.LocationLink)[] | undefined>(command, uri, position);
    return {
      places: (found ?? []).map((l) =>
        "targetUri" in l
          ? { uri: l.targetUri.toString(), range: wireRange(l.targetSelectionRange ?? l.targetRange) }
          : { uri: l.uri.toString(), range: wireRange(l.range) },
      ),
    };
  }
  switch (p.feature) {
    case "hover":
      return hover(p);
    case "documentSymbols":
      return documentSymbols(p);
    case "workspaceSymbols":
      return workspaceSymbols(p);
    case "callHierarchy":
      return callHierarchy(p);
  }
  throw new Failure("not_supported", `${p.feature} is not answered through VS Code`, "Update the extension to the bridge's version.");
}

function at(p: Params): { uri: vscode.Uri; position: vscode.Position } {
  if (p.uri === undefined || p.position === undefined)
    throw new Failure("invalid_arguments", `${p.feature} needs a file and a position`, "Give both.");
  return { uri: vscode.Uri.parse(p.uri), position: new vscode.Position(p.position.line, p.position.character) };
}

async function hover(p: Params): Promise<Result> {
  const { uri, position } = at(p);
  const hovers = (await vscode.commands.executeCommand<vscode.Hover[] | undefined>("vscode.executeHoverProvider", uri, position)) ?? [];
  const texts: string[] = [];
  for (const h of hovers) {
    for (const c of h.contents) {
      const text = typeof c === "string" ? c : "language" in c ? `\`\`\`${c.language}\n${c.value}\n\`\`\`` : c.value;
      if (text.trim() !== "") texts.push(text.trim());
    }
  }
  return { hover: texts };
}

async function documentSymbols(p: Params): Promise<Result> {
  if (p.uri === undefined) throw new Failure("invalid_arguments", "documentSymbols needs a file", "Give one.");
  const uri = vscode.Uri.parse(p.uri);
  const found =
    (await vscode.commands.executeCommand<(vscode.DocumentSymbol | vscode.SymbolInformation)[] | undefined>(
      "vscode.executeDocumentSymbolProvider",
      uri,
    )) ?? [];
  const symbols: WireSymbol[] = [];
  const walk = (list: readonly (vscode.DocumentSymbol | vscode.SymbolInformation)[], depth: number, container?: string) => {
    for (const s of list) {
      if ("location" in s) {
        symbols.push(symbol(s.name, s.kind, s.location.uri, s.location.range, { container: s.containerName || undefined }));
        continue;
      }
      symbols.push(symbol(s.name, s.kind, uri, s.range, { container, detail: s.detail || undefined, depth }));
      walk(s.children, depth + 1, s.name);
    }
  };
  walk(found, 0);
  return { symbols };
}

async function workspaceSymbols(p: Params): Promise<Result> {
  const found =
    (await vscode.commands.executeCommand<vscode.SymbolInformation[] | undefined>(
      "vscode.executeWorkspaceSymbolProvider",
      p.query ?? "",
    )) ?? [];
  return {
    symbols: found
      .filter((s) => s.location.uri.scheme === "file")
      .map((s) => symbol(s.name, s.kind, s.location.uri, s.location.range, { container: s.containerName || undefined })),
  };
}

async function callHierarchy(p: Params): Promise<Result> {
  const { uri, position } = at(p);
  const items =
    (await vscode.commands.executeCommand<vscode.CallHierarchyItem[] | undefined>("vscode.prepareCallHierarchy", uri, position)) ?? [];
  const root = items[0];
  if (root === undefined) return { calls: [] };
  const calls: WireCall[] = [];
  const truncated: ("incoming" | "outgoing")[] = [];
  const maxDepth = Math.max(1, p.depth ?? 1);
  const max = Math.min(p.maxResults ?? 50, MAX_CALLS);
  for (const direction of p.directions ?? ["incoming", "outgoing"]) {
    const budget = { left: max };
    const command = direction === "incoming" ? "vscode.provideIncomingCalls" : "vscode.provideOutgoingCalls";
    const visit = async (item: vscode.CallHierarchyItem, depth: number, seen: ReadonlySet<string>): Promise<void> => {
      const next =
        (await vscode.commands.executeCommand<(vscode.CallHierarchyIncomingCall | vscode.CallHierarchyOutgoingCall)[] | undefined>(
          command,
          item,
        )) ?? [];
      for (const call of next) {
        if (budget.left <= 0) {
          if (!truncated.includes(direction)) truncated.push(direction);
          return;
        }
        budget.left -= 1;
        const other = "from" in call ? call.from : call.to;
        const cycle = seen.has(key(other));
        const first = call.fromRanges[0];
        calls.push({
          direction,
          depth,
          item: symbol(other.name, other.kind, other.uri, other.selectionRange),
          ...(direction === "incoming" && first !== undefined ? { at: wireRange(first).start } : {}),
          ...(cycle ? { cycle } : {}),
        });
        if (!cycle && depth < maxDepth) await visit(other, depth + 1, new Set([...seen, key(other)]));
      }
    };
    await visit(root, 1, new Set([key(root)]));
  }
  return { root: symbol(root.name, root.kind, root.uri, root.selectionRange), calls, truncated };
}

function key(item: vscode.CallHierarchyItem): string {
  return `${item.uri.toString()}:${item.selectionRange.start.line}:${item.selectionRange.start.character}`;
}

function symbol(
  name: string,
  kind: vscode.SymbolKind,
  uri: vscode.Uri,
  range: vscode.Range,
  more: { container?: string; detail?: string; depth?: number } = {},
): WireSymbol {
  const out: WireSymbol = { name, kind: kindName(kind), uri: uri.toString(), range: wireRange(range) };
  if (more.container !== undefined) out.containerName = more.container;
  if (more.detail !== undefined) out.detail = more.detail;
  if (more.depth !== undefined) out.depth = more.depth;
  return out;
}

/** vscode.SymbolKind.EnumMember -> "enum member": the words the bridge's tools print for LSP kinds. */
function kindName(kind: vscode.SymbolKind): string {
  const name = vscode.SymbolKind[kind] ?? "symbol";
  return name.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
}
