// What serving a resource may use: the bridge's tools (as prompts use them), the jailed workspace
// filesystem for file contents, and whether the VS Code extension is there (editor resources).
import type { PromptContext } from "../prompts/prompt-context.ts";
import type { WorkspaceFs } from "../workspace/workspace-fs.ts";

export interface ResourceContext extends PromptContext {
  readonly fs: WorkspaceFs;
  readonly extensionConnected: boolean;
}

/** A resource the request named that is not there (or not ours): -32002 in 2025, -32602 in 2026. */
export class ResourceMissing extends Error {
  constructor(
    readonly uri: string,
    message: string,
  ) {
    super(message);
    this.name = this.constructor.name;
  }
}

/** A resource that cannot be served as asked (too large for one read): invalid params. */
export class ResourceRefused extends Error {
  constructor(
    readonly uri: string,
    message: string,
  ) {
    super(message);
    this.name = this.constructor.name;
  }
}
