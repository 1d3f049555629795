// What a plugin sees: the context its register(ctx) gets, the definition registerTool takes, and the
// context each of its handlers gets. The plugin runs in a worker of its own
// (runtime/shared/plugin-worker.mjs builds these objects there); its fs, exec, http and lsp are
// proxies to the same narrow capabilities built-in tools get (the jailed ctx.fs, allowlisted
// ctx.exec, SSRF-safe ctx.http, ctx.lsp), run on the bridge's side (plugin-capabilities.ts), so each
// method returns a promise of plain data. Never the Runtime, the environment, the token or the config.
import type { ToolSettings } from "../capabilities/context.ts";
import type { Exec } from "../capabilities/exec/exec.ts";
import type { HttpClient } from "../capabilities/http/http-client.ts";
import type { LogLevel } from "../capabilities/log-levels.ts";
import type { LspDocument, LspService } from "../lsp/lsp-service.ts";
import type { ContentBlock, DeclaredAnnotations, DeclaredRequirements, Schema } from "../tools/platform/define-tool.ts";
import type { JsonObject } from "../tools/platform/json-schema.ts";
import type { WorkspaceFs } from "../workspace/workspace-fs.ts";

/** The workspace's files through the jail; readMany and walk are answered whole (at most 50,000 entries), openFile and watch are not offered. */
export type PluginFs = Omit<WorkspaceFs, "openFile" | "watch">;

/** The language-server questions a plugin may ask; options take no signal (the call's is used), and languageOf answers a promise. */
export interface PluginLsp
  extends Pick<
    LspService,
    | "diagnosticsFor"
    | "handles"
    | "handlesWorkspace"
    | "workspaceDiagnostics"
    | "workspaceErrors"
    | "pathOf"
    | "recheckable"
    | "status"
    | "available"
  > {
  languageOf(relative: string): Promise<string | undefined>;
  /** The file synced into the server for `opts.method`; its requests go through the bridge. */
  document(
    file: string,
    opts: { method: string },
  ): Promise<Pick<LspDocument, "path" | "relative" | "uri" | "languageId" | "text" | "fresh" | "request" | "wholeProject">>;
}

export interface PluginLogger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

/** Given to a plugin's register(ctx). */
export interface PluginContext {
  readonly plugin: { readonly name: string; readonly version: string; readonly toolNamePrefix: string };
  readonly bridgeVersion: string;
  /** Real absolute paths of the workspace folders, the root first. */
  readonly workspaceFolders: readonly string[];
  /** The bridge settings a tool may know (no secrets), frozen. */
  readonly settings: Readonly<ToolSettings>;
  readonly log: PluginLogger;
  /** The workspace's files through the jail (paths relative to the root, or absolute inside it). */
  readonly fs: PluginFs;
  /** The workspace's language servers. */
  readonly lsp: PluginLsp;
  /** HTTP(S) through the SSRF defence; aborted when this version of the plugin is replaced or the bridge stops. */
  readonly http: HttpClient;
  registerTool(definition: PluginToolDefinition): void;
  /** An error to throw from a handler for an expected failure: the model reads the message and the suggestion. */
  toolError(message: string, opts: { suggestion: string }): Error;
}

/** Given to each call of a plugin tool's handler. */
export interface PluginToolContext {
  readonly fs: PluginFs;
  /** Runs the executables the tool declared in requires (no shell, scrubbed environment); onOutput is not called. */
  readonly exec: Pick<Exec, "run" | "runAllowed">;
  readonly http: HttpClient;
  readonly lsp: PluginLsp;
  readonly settings: Readonly<ToolSettings>;
  readonly workspaceFolders: readonly string[];
  /** Aborted when the caller cancels, at the tool's timeout, and when the session ends. */
  readonly signal: AbortSignal;
  progress(progress: number, opts?: { total?: number; message?: string }): void;
  log(level: LogLevel, message: string, data?: unknown): void;
}

/**
 * A tool's result: plain text, content blocks, or any other JSON value (sent as compact JSON text).
 */
export type PluginToolResult = string | { content: ContentBlock[] } | JsonObject | readonly unknown[] | number | boolean | null;

/** The same shape as a built-in tool's definition (src/tools/platform/define-tool.ts), with the input schema named inputSchema. */
export interface PluginToolDefinition {
  /** Starts with the manifest's toolNamePrefix. */
  name: string;
  title?: string;
  /** At most 200 characters, starting with a verb ("Lists…", "Reads…"). */
  description: string;
  /** One line of the words a model would search for. */
  searchHint: string;
  /** A strict object: a valibot v.strictObject, or JSON Schema with type "object" and additionalProperties false. */
  inputSchema: Schema | JsonObject;
  annotations: DeclaredAnnotations;
  /** Executables the handler runs through ctx.exec. */
  requires?: DeclaredRequirements;
  /** Per-call limit in ms (default 60,000; the bridge's --timeout when that is longer). */
  timeoutMs?: number;
  handler(input: never, ctx: PluginToolContext): Promise<PluginToolResult> | PluginToolResult;
}
