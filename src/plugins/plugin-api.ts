// What a plugin sees: the context its register(ctx) gets, the definition registerTool takes, and the
// context each of its handlers gets. The same narrow capabilities built-in tools get (the jailed
// ctx.fs, allowlisted ctx.exec, SSRF-safe ctx.http, ctx.lsp) and nothing else: never the Runtime,
// the environment, the token or the bridge's config.
import type { ToolSettings } from "../capabilities/context.ts";
import type { Exec } from "../capabilities/exec/exec.ts";
import type { HttpClient } from "../capabilities/http/http-client.ts";
import type { LogLevel } from "../capabilities/log-levels.ts";
import type { LspService } from "../lsp/lsp-service.ts";
import type { ContentBlock, DeclaredAnnotations, DeclaredRequirements, Schema } from "../tools/platform/define-tool.ts";
import type { JsonObject } from "../tools/platform/json-schema.ts";
import type { WorkspaceFs } from "../workspace/workspace-fs.ts";

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
  readonly fs: WorkspaceFs;
  /** The workspace's language servers. */
  readonly lsp: LspService;
  /** HTTP(S) through the SSRF defence; aborted when this version of the plugin is replaced or the bridge stops. */
  readonly http: HttpClient;
  registerTool(definition: PluginToolDefinition): void;
  /** An error to throw from a handler for an expected failure: the model reads the message and the suggestion. */
  toolError(message: string, opts: { suggestion: string }): Error;
}

/** Given to each call of a plugin tool's handler. */
export interface PluginToolContext {
  readonly fs: WorkspaceFs;
  /** Runs the executables the tool declared in requires (no shell, scrubbed environment). */
  readonly exec: Exec;
  readonly http: HttpClient;
  readonly lsp: LspService;
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
