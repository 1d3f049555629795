// spawnWorkspace: a child bridge on another project folder (src/capabilities/child-bridges.ts), for
// work that needs that folder's own jail, language servers and git. Only folders under a
// --spawn-root the user gave are served. The answer is how to reach it: its MCP URL, its own token
// and the command that adds it to Claude Code; it also writes its own lock file, as every bridge does.
// waitForExtensionMs waits, bounded, until a VS Code extension connects to the child (the user opens
// the folder in VS Code, whose extension finds the child by that lock file), so the editor tools work
// there from the first call. There is no codeServer option: the bridge starts no editor, since a
// window it opened would run the folder's tasks and extensions without the user asking. The child's
// language servers run with their defaults: this bridge's config file is not passed on, since it may
// hold a fixed token, allowed commands and remote access meant for this bridge alone.
import * as v from "valibot";
import { ToolError } from "../../errors.ts";
import type { ChildBridges } from "../../capabilities/child-bridges.ts";
import type { ToolContext } from "../../capabilities/context.ts";
import { defineTool } from "../platform/define-tool.ts";

/** The longest wait for a VS Code window to connect: a user opening the folder takes seconds, not minutes. */
const MAX_EXTENSION_WAIT_MS = 120_000;

const SpawnedWorkspace = v.object({
  folder: v.pipe(v.string(), v.description("Real absolute path the child serves.")),
  mcpUrl: v.pipe(v.string(), v.description("The child's Streamable HTTP endpoint.")),
  addCommand: v.pipe(v.string(), v.description("Adds the child to Claude Code, with its own bearer token (not this bridge's).")),
  pid: v.optional(v.number()),
  extensionConnected: v.pipe(
    v.boolean(),
    v.description("A VS Code extension is connected to the child; false: open the folder in VS Code for the editor tools there."),
  ),
  endsWithThisSession: v.pipe(v.boolean(), v.description("false: another session started it, and it ends with that one.")),
});

/** The session's child bridges, or an answer saying this bridge has none to offer. */
export function childBridgesOf(ctx: ToolContext): ChildBridges {
  if (ctx.childBridges === undefined) {
    throw new ToolError("not_supported", "This bridge cannot start child bridges", {
      suggestion: "Ask the user to start a bridge in that folder: claude-ide-bridge --workspace <folder>.",
    });
  }
  return ctx.childBridges;
}

export default defineTool({
  name: "spawnWorkspace",
  title: "Spawn a workspace bridge",
  description:
    "Starts a child bridge on another project folder (under a --spawn-root) with its own jail and token; returns its MCP URL and how to add it; can wait for VS Code to connect. Ends with its session.",
  searchHint: "spawn open another project folder workspace new bridge second repository",
  input: v.strictObject({
    folder: v.pipe(v.string(), v.minLength(1), v.description("Absolute path of the project folder to serve.")),
    waitForExtensionMs: v.optional(
      v.pipe(
        v.number(),
        v.integer(),
        v.minValue(0),
        v.maxValue(MAX_EXTENSION_WAIT_MS),
        v.description("Wait up to this long for a VS Code window on the folder to connect its extension (default 0: no wait)."),
      ),
    ),
  }),
  output: SpawnedWorkspace,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  // A cold start of a bridge under load takes seconds, then the wait for the extension.
  timeoutMs: 90_000 + MAX_EXTENSION_WAIT_MS,
  async handler(input, ctx) {
    const wait = input.waitForExtensionMs === undefined ? {} : { waitForExtensionMs: input.waitForExtensionMs };
    const child = await childBridgesOf(ctx).start(ctx.session, input.folder, { signal: ctx.signal, ...wait });
    const name = `bridge-${child.folder.split("/").pop() ?? "child"}`.replace(/[^A-Za-z0-9_-]/g, "-");
    return {
      folder: child.folder,
      mcpUrl: child.mcpUrl,
      ...(child.pid === undefined ? {} : { pid: child.pid }),
      endsWithThisSession: child.session === ctx.session,
      extensionConnected: child.extensionConnected,
      addCommand: `claude mcp add --transport http ${name} ${child.mcpUrl} --header "Authorization: Bearer ${child.token}"`,
    };
  },
});
