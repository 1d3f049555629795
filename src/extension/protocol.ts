// The bridge <-> VS Code extension protocol, in one module both ends import (the extension bundles
// it): JSON-RPC 2.0 over a WebSocket at /extension, authenticated by EXTENSION_AUTH_HEADER. The
// extension opens with `extension/hello`; then the bridge sends it requests (BRIDGE_REQUESTS) and
// it pushes notifications (EXTENSION_PUSHES). Every payload is a valibot schema, checked where it
// is received. Only valibot is imported, so the extension's bundle stays small.
import * as v from "valibot";
import { EDIT_PROTOCOL_VERSION, EDIT_REQUESTS } from "./protocol-edit.ts";
import { DEBUG_PROTOCOL_VERSION, DEBUG_REQUESTS, DebugSessionPush } from "./protocol-debug.ts";
import { IDE_REQUESTS } from "./protocol-ide.ts";
import { NOTEBOOK_PROTOCOL_VERSION, NOTEBOOK_REQUESTS } from "./protocol-notebook.ts";

/** Semver: the two ends work together when the majors match; a minor adds optional things. */
export const EXTENSION_PROTOCOL_VERSION = "1.5.0";
/** The bridge token (the lock file's authToken) on the upgrade request. */
export const EXTENSION_AUTH_HEADER = "x-claude-ide-extension";
/** The path the extension connects to; Claude Code's socket takes every other path. */
export const EXTENSION_PATH = "/extension";
/** JSON-RPC error of a hello the bridge cannot work with (data: { bridgeProtocol }). */
export const INCOMPATIBLE_PROTOCOL = -32010;
/** JSON-RPC error of a request the extension could not carry out; data: { code, suggestion }. */
export const EXTENSION_FAILED = -32011;
/** WebSocket close codes of the extension link (private range). */
export const ExtensionClose = {
  /** Another extension (another VS Code window) took the bridge. */
  superseded: 4001,
  /** The hello named a protocol this bridge does not speak. */
  incompatible: 4002,
  /** No hello within the handshake time. */
  noHello: 4003,
} as const;

export const DEFAULT_TIMEOUT_MS = 10_000;
export const SLOW_TIMEOUT_MS = 15_000;
export const DEBUG_REQUEST_TIMEOUT_MS = 30_000;

export function compatibleProtocols(a: string, b: string): boolean {
  return a.split(".")[0] === b.split(".")[0];
}

const str = v.string();
const count = v.pipe(v.number(), v.integer(), v.minValue(0));
const Position = v.object({ line: count, character: count });
const Range = v.object({ start: Position, end: Position });
export type WirePosition = v.InferOutput<typeof Position>;
export type WireRange = v.InferOutput<typeof Range>;

export const Folder = v.object({ name: str, uri: str, path: str });
export type Folder = v.InferOutput<typeof Folder>;

export const WireDiagnostic = v.object({
  range: Range,
  severity: v.picklist(["error", "warning", "info", "hint"]),
  message: str,
  source: v.optional(str),
  code: v.optional(v.union([str, v.number()])),
});
export type WireDiagnostic = v.InferOutput<typeof WireDiagnostic>;
export const FileDiagnostics = v.object({ uri: str, diagnostics: v.array(WireDiagnostic) });
export type FileDiagnostics = v.InferOutput<typeof FileDiagnostics>;

/** The IDE link's selection shape (protocol.md A4/A6), 0-based. */
export const Selection = v.object({
  text: str,
  filePath: str,
  fileUrl: str,
  selection: v.object({ start: Position, end: Position, isEmpty: v.boolean() }),
});
export type Selection = v.InferOutput<typeof Selection>;

export const EditorTab = v.object({
  uri: str,
  isActive: v.boolean(),
  isPinned: v.boolean(),
  isPreview: v.boolean(),
  isDirty: v.boolean(),
  label: str,
  groupIndex: count,
  viewColumn: count,
  isGroupActive: v.boolean(),
  fileName: str,
  languageId: str,
  lineCount: count,
  isUntitled: v.boolean(),
  selection: v.optional(v.object({ start: Position, end: Position, isEmpty: v.boolean() })),
});
export type EditorTab = v.InferOutput<typeof EditorTab>;

export const AiComment = v.object({ line: count, text: str });
export type AiComment = v.InferOutput<typeof AiComment>;

const LanguageFeature = v.picklist([
  "definition",
  "declaration",
  "typeDefinition",
  "implementation",
  "references",
  "hover",
  "documentSymbols",
  "workspaceSymbols",
  "callHierarchy",
]);
export type LanguageFeature = v.InferOutput<typeof LanguageFeature>;
/** Slower VS Code operations get SLOW_TIMEOUT_MS (rename, format, call hierarchy, startDebugging). */
export const SLOW_FEATURES: readonly string[] = ["rename", "format", "callHierarchy", "startDebugging"];

const Place = v.object({ uri: str, range: Range });
/**
 * A symbol; `kind` is the LSP SymbolKind's name in lower case, words spaced ("enum member"). A
 * document outline is flattened in order, `depth` 0 at the top; `range` is the whole symbol there,
 * its name elsewhere.
 */
export const WireSymbol = v.object({
  name: str,
  kind: str,
  uri: str,
  range: Range,
  containerName: v.optional(str),
  detail: v.optional(str),
  depth: v.optional(count),
});
export type WireSymbol = v.InferOutput<typeof WireSymbol>;
/** One call of a call hierarchy walked by the extension, in tree order; `depth` 1 next to the root. */
export const WireCall = v.object({
  direction: v.picklist(["incoming", "outgoing"]),
  depth: count,
  item: WireSymbol,
  /** Where an incoming call is made, in its caller. */
  at: v.optional(Position),
  /** Already on the path to the root: not followed. */
  cycle: v.optional(v.boolean()),
});
export type WireCall = v.InferOutput<typeof WireCall>;

/** Requests the bridge sends; the extension answers each. */
export const BRIDGE_REQUESTS = {
  "extension/openFile": {
    params: v.object({
      filePath: str,
      preview: v.optional(v.boolean()),
      startLine: v.optional(count),
      endLine: v.optional(count),
      startText: v.optional(str),
      endText: v.optional(str),
      selectToEndOfLine: v.optional(v.boolean()),
      makeFrontmost: v.optional(v.boolean()),
    }),
    result: v.object({ filePath: str, languageId: str, lineCount: count }),
  },
  "extension/getSelection": { params: v.object({}), result: v.object({ selection: v.nullable(Selection) }) },
  "extension/getOpenEditors": { params: v.object({}), result: v.object({ tabs: v.array(EditorTab) }) },
  "extension/closeTab": {
    params: v.object({ tabName: v.optional(str), filePath: v.optional(str) }),
    result: v.object({ closed: count }),
  },
  "extension/saveDocument": {
    params: v.object({ filePath: str }),
    result: v.object({ open: v.boolean(), saved: v.boolean(), message: str }),
  },
  "extension/checkDocumentDirty": {
    params: v.object({ filePath: str }),
    result: v.object({ open: v.boolean(), isDirty: v.boolean(), isUntitled: v.boolean() }),
  },
  /** The document as VS Code holds it (unsaved edits included); opened in memory when it is not. */
  "extension/readDocument": {
    params: v.object({ filePath: str }),
    result: v.object({ text: str, isDirty: v.boolean(), version: count, languageId: str, eol: v.picklist(["\n", "\r\n"]) }),
  },
  /**
   * VS Code's diagnostics of one file or of all. `open`: a file VS Code does not have open is opened
   * (in memory) and its diagnostics awaited briefly; `settled` false when that wait ran out.
   */
  "extension/getDiagnostics": {
    params: v.object({ uri: v.optional(str), open: v.optional(v.boolean()) }),
    result: v.object({ files: v.array(FileDiagnostics), settled: v.optional(v.boolean()) }),
  },
  "extension/getWorkspaceFolders": { params: v.object({}), result: v.object({ folders: v.array(Folder) }) },
  /** Shows a diff; the user's answer comes later as `extension/diffResolved`. */
  "extension/openDiff": {
    params: v.object({ oldFilePath: str, newFilePath: str, newContents: str, tabName: str }),
    result: v.object({ shown: v.boolean() }),
  },
  "extension/closeDiffs": { params: v.object({ tabNames: v.array(str) }), result: v.object({ closed: count }) },
  "extension/executeCode": {
    params: v.object({ code: str }),
    result: v.object({
      outputs: v.array(
        v.union([v.object({ type: v.literal("text"), text: str }), v.object({ type: v.literal("image"), data: str, mimeType: str })]),
      ),
    }),
  },
  "extension/languageFeature": {
    params: v.object({
      feature: LanguageFeature,
      uri: v.optional(str),
      position: v.optional(Position),
      query: v.optional(str),
      /** callHierarchy: which calls, how many levels, and at most how many in all (per direction). */
      directions: v.optional(v.array(v.picklist(["incoming", "outgoing"]))),
      depth: v.optional(count),
      maxResults: v.optional(count),
    }),
    result: v.object({
      places: v.optional(v.array(Place)),
      /** Each hover's contents as markdown or plain text. */
      hover: v.optional(v.array(str)),
      symbols: v.optional(v.array(WireSymbol)),
      /** callHierarchy: the function at the position (absent when there is none), and its calls. */
      root: v.optional(WireSymbol),
      calls: v.optional(v.array(WireCall)),
      /** callHierarchy: directions cut at maxResults. */
      truncated: v.optional(v.array(v.picklist(["incoming", "outgoing"]))),
    }),
  },
  ...IDE_REQUESTS,
  ...EDIT_REQUESTS,
  ...DEBUG_REQUESTS,
  ...NOTEBOOK_REQUESTS,
} as const;

export type BridgeMethod = keyof typeof BRIDGE_REQUESTS;
export type ParamsOf<M extends BridgeMethod> = v.InferInput<(typeof BRIDGE_REQUESTS)[M]["params"]>;
export type ResultOf<M extends BridgeMethod> = v.InferOutput<(typeof BRIDGE_REQUESTS)[M]["result"]>;

export const HelloParams = v.object({
  protocolVersion: str,
  extensionVersion: str,
  /** VS Code's version (vscode.version) and application (vscode.env.appName). */
  ideVersion: str,
  appName: str,
  workspaceFolders: v.array(Folder),
});
export type HelloParams = v.InferOutput<typeof HelloParams>;
export const HelloResult = v.object({ protocolVersion: str, bridgeVersion: str, workspace: str });
export type HelloResult = v.InferOutput<typeof HelloResult>;

const ActiveFile = v.object({
  filePath: v.nullable(str),
  fileUrl: v.nullable(str),
  languageId: v.optional(str),
  lineCount: v.optional(count),
  isDirty: v.optional(v.boolean()),
  /** The first MAX_ACTIVE_FILE_CHARS of its text. */
  content: v.optional(str),
  contentTruncated: v.optional(v.boolean()),
});
export type ActiveFile = v.InferOutput<typeof ActiveFile>;

/** Notifications the extension sends (and the one request it makes, hello). */
export const EXTENSION_PUSHES = {
  "extension/diagnosticsChanged": v.object({ files: v.array(FileDiagnostics) }),
  "extension/selectionChanged": Selection,
  "extension/activeFileChanged": ActiveFile,
  "extension/fileChanged": v.object({ filePath: str, fileUrl: str, version: count, isDirty: v.boolean() }),
  "extension/fileSaved": v.object({ filePath: str, fileUrl: str }),
  "extension/lspReady": v.object({ languageId: str }),
  "extension/aiCommentsChanged": v.object({ filePath: str, fileUrl: str, comments: v.array(AiComment) }),
  "extension/workspaceFoldersChanged": v.object({ folders: v.array(Folder) }),
  /** The user sent a file or lines to Claude (0-based lines; none for a whole file). */
  "extension/atMentioned": v.object({ filePath: str, lineStart: v.optional(count), lineEnd: v.optional(count) }),
  "extension/diffResolved": v.object({ tabName: str, outcome: v.picklist(["accepted", "rejected"]), contents: v.optional(str) }),
  "extension/debugSessionChanged": DebugSessionPush,
} as const;
export type PushMethod = keyof typeof EXTENSION_PUSHES;
export type PushOf<M extends PushMethod> = v.InferOutput<(typeof EXTENSION_PUSHES)[M]>;

/** Caps of what the bridge caches from pushes (and the extension sends at most). */
export const MAX_DIAGNOSTIC_FILES = 500;
export const MAX_AI_COMMENTS = 200;
export const MAX_ACTIVE_FILE_CHARS = 32 * 1024;

/** The protocol version that added each method of a later minor; the rest are 1.0/1.1. */
const METHOD_SINCE: Partial<Record<BridgeMethod, string>> = Object.fromEntries([
  ...Object.keys(IDE_REQUESTS).map((m) => [m, "1.2.0"]),
  ...Object.keys(EDIT_REQUESTS).map((m) => [m, EDIT_PROTOCOL_VERSION]),
  ...Object.keys(DEBUG_REQUESTS).map((m) => [m, DEBUG_PROTOCOL_VERSION]),
  ...Object.keys(NOTEBOOK_REQUESTS).map((m) => [m, NOTEBOOK_PROTOCOL_VERSION]),
]);

/** The version a method needs, when an extension that says `version` (same major) lacks it. */
export function missingMethod(method: BridgeMethod, version: string): string | undefined {
  const since = METHOD_SINCE[method];
  return since === undefined || protocolAtLeast(version, since) ? undefined : since;
}

/** `have` (same major) has everything of `need`: its minor is at least need's. */
export function protocolAtLeast(have: string, need: string): boolean {
  const [, haveMinor = "0"] = have.split(".");
  const [, needMinor = "0"] = need.split(".");
  return Number(haveMinor) >= Number(needMinor);
}

export function timeoutFor(method: BridgeMethod, params: unknown): number {
  // A request that waits (a terminal command, a task, new output) gets its wait on top.
  if (typeof params === "object" && params !== null && "waitMs" in params && typeof params.waitMs === "number")
    return (
      DEFAULT_TIMEOUT_MS +
      params.waitMs +
      ("integrationWaitMs" in params && typeof params.integrationWaitMs === "number" ? params.integrationWaitMs : 0)
    );
  if (method === "extension/rename" || method === "extension/format" || method === "extension/codeActionEdit") return SLOW_TIMEOUT_MS;
  // A debug adapter busy with a stopped program (source maps, a large stack) can take seconds per request.
  if (method === "extension/debugRequest") return DEBUG_REQUEST_TIMEOUT_MS;
  if (method === "extension/languageFeature" && typeof params === "object" && params !== null && "feature" in params)
    return SLOW_FEATURES.includes(String(params.feature)) ? SLOW_TIMEOUT_MS : DEFAULT_TIMEOUT_MS;
  return DEFAULT_TIMEOUT_MS;
}
