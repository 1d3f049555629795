// getToolCapabilities' `lsp` section: which language servers the bridge can run here (found where,
// or missing), and the state of those running, so a model knows why a language
// has no answers and what a busy server is doing.
import * as v from "valibot";
import { isInside, relative } from "../../lib/paths/posix-path.ts";
import type { ToolContext } from "../../capabilities/context.ts";

export const LspCapabilities = v.object({
  servers: v.array(
    v.object({
      id: v.string(),
      languages: v.array(v.string()),
      found: v.pipe(v.nullable(v.string()), v.description('"bundled", "workspace" or "PATH": path; null when not installed.')),
      running: v.array(
        v.object({
          root: v.string(),
          state: v.pipe(
            v.string(),
            v.description(
              "starting, running, idle (shut down; starts on the next call), evicted (stopped to keep under the cap; starts on the next call), crashed (restarts on the next call), failed (crashed too often).",
            ),
          ),
          server: v.optional(v.string()),
          pid: v.optional(v.number()),
          openDocuments: v.number(),
          busyWith: v.array(v.string()),
          crashes: v.number(),
          lastError: v.optional(v.string()),
          memoryBytes: v.optional(v.pipe(v.number(), v.description("Resident memory with the processes it started (Linux)."))),
        }),
      ),
    }),
  ),
  limits: v.pipe(
    v.object({ maxServers: v.number(), maxMemoryBytes: v.number(), memoryBytes: v.optional(v.number()) }),
    v.description("The pool's caps: past either, the least recently used idle server is stopped; memoryBytes: the running ones' now."),
  ),
  watchedDirectories: v.pipe(v.number(), v.description("Directories watched for changes made outside the bridge.")),
});

export async function lspCapabilities(ctx: ToolContext): Promise<v.InferOutput<typeof LspCapabilities>> {
  const status = ctx.lsp.status();
  const available = await ctx.lsp.available();
  return {
    servers: available.map((s) => ({
      id: s.id,
      languages: [...s.languages],
      found: s.found === undefined ? null : `${s.found.from}: ${s.found.command}`,
      running: status.servers
        .filter((r) => r.id === s.id)
        .map(({ id: _id, command: _command, from: _from, root, ...rest }) => ({
          root: isInside(root, ctx.fs.root) ? relative(ctx.fs.root, root) || "." : root,
          ...rest,
        })),
    })),
    limits: status.limits,
    watchedDirectories: status.watchedDirectories,
  };
}
