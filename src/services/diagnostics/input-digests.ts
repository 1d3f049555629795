// The content proof of kept-answers.ts: a path's state as a digest of what is there, a file's bytes
// or a folder's entries (names and kinds), not its modification time, so a file written a moment
// before a run is no reason to refuse it (a modification time cannot order a write and a run
// within the clock's grain; content can).
import type { ToolContext } from "../../capabilities/context.ts";
import { ToolError } from "../../errors.ts";

const MAX_INPUT_BYTES = 32 * 1024 * 1024;

/** Each input path's content digest ("-" for nothing there). */
export type Snapshot = ReadonlyMap<string, string>;

/** Each path's content digest; undefined when one cannot be read (outside the workspace, too large). */
export async function snapshotOf(ctx: Pick<ToolContext, "fs">, paths: readonly string[]): Promise<Snapshot | undefined> {
  const out = new Map<string, string>();
  for (const path of paths) {
    const digest = await digestOf(ctx, path).catch((err: unknown) => (unreadable(err) ? undefined : "-"));
    if (digest === undefined) return undefined;
    out.set(path, digest);
  }
  return out;
}

async function digestOf(ctx: Pick<ToolContext, "fs">, path: string): Promise<string> {
  const stat = await ctx.fs.stat(path);
  if (stat.isDirectory) {
    const entries = await ctx.fs.list(path);
    return `dir:${entries
      .map((e) => `${e.name}/${e.kind}`)
      .sort()
      .join("\u0000")}`;
  }
  const { bytes } = await ctx.fs.readBytes(path, { maxBytes: MAX_INPUT_BYTES });
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>));
  return `file:${[...hash].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
}

/** A path whose content may not be read (a link out of the workspace, a file too large to hash), not one that is absent. */
function unreadable(err: unknown): boolean {
  return err instanceof ToolError && err.code !== "file_not_found" && err.code !== "not_a_directory" && err.code !== "invalid_path";
}
