// What a tool handler may touch. Handlers reach the world only through this object
// (DESIGN.md, "The flow of one request"), which keeps them testable and inside the jail.
import type { Runtime } from "../runtime.ts";
import type { BridgeConfig } from "../config/schema.ts";
import type { LogLevel } from "../mcp/logging.ts";

/** The workspace path jail (src/security/paths.ts). Every path a tool touches goes through it. */
export interface Workspace {
  /** Real (symlink-free) absolute path of the root. */
  readonly root: string;
  /** Real absolute paths of all workspace folders; the root is the first. */
  readonly folders: readonly string[];
  /**
   * Resolves a user-supplied path (absolute, or relative to the root) to a real absolute path
   * inside the workspace. Throws ToolError (invalid_path, outside_workspace, file_not_found).
   */
  resolve(path: string, opts?: ResolveOptions): Promise<string>;
  /** The root-relative form of an absolute path inside the workspace ("" for the root). */
  relative(absolutePath: string): string;
}

export interface ResolveOptions {
  /** The path must exist (default true). When false, the nearest existing ancestor is checked. */
  mustExist?: boolean;
  /** The caller will write: hard-linked files are refused as well. */
  forWrite?: boolean;
}

export interface ProbeResult {
  available: boolean;
  /** Absolute path of the executable when found. */
  path?: string;
}

/** Which external commands exist on this machine; looked up once and cached. */
export interface Probes {
  get(command: string): Promise<ProbeResult>;
}

/** The VS Code extension's link; the extension issue fills this in. */
export interface ExtensionLink {
  readonly connected: boolean;
}

/** A read-only view of the registered tools, for introspection tools. */
export interface ToolCatalog {
  list(): readonly ToolSummary[];
}

export interface ToolSummary {
  name: string;
  title: string | undefined;
  description: string;
  requires: ToolRequirements;
  readOnly: boolean;
}

export interface ToolRequirements {
  /** An executable that must be on PATH (e.g. "git", "rg"). */
  probe?: string;
  /** "required": fails without the extension; "fallback": works without it, better with it. */
  extension?: "required" | "fallback";
}

export interface ToolContext {
  readonly workspace: Workspace;
  readonly runtime: Runtime;
  readonly config: BridgeConfig;
  readonly probes: Probes;
  readonly extension: ExtensionLink;
  readonly catalog: ToolCatalog;
  /** Aborted on notifications/cancelled, on timeout, and when the session ends. */
  readonly signal: AbortSignal;
  /** Sends notifications/progress when the caller gave a progressToken; otherwise a no-op. */
  progress(progress: number, opts?: { total?: number; message?: string }): void;
  /** Sends notifications/message to the client (subject to logging/setLevel) and logs locally. */
  log(level: LogLevel, message: string, data?: unknown): void;
}
