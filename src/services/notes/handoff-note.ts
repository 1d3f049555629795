// The handoff note: one note in the workspace (.claude-ide-bridge/handoff.md) that a session leaves
// for the next one (what was done, what is next). Its first line records when and from which
// session it was written; the rest is the note as given.
import { ToolError } from "../../errors.ts";
import type { ToolContext } from "../../capabilities/context.ts";
import { DATA_DIR, ensureDataDir } from "./bridge-data-dir.ts";

export const HANDOFF_FILE = `${DATA_DIR}/handoff.md`;
export const MAX_NOTE_CHARS = 32 * 1024;

interface HandoffNote {
  note: string;
  updatedAt: string;
  /** The first characters of the writing session's id. */
  session: string;
}

const HEADER = /^<!-- handoff updatedAt=(\S+) session=(\S+) -->\n?/;

export async function readHandoff(ctx: ToolContext): Promise<HandoffNote | undefined> {
  const text = await ctx.fs.readText(HANDOFF_FILE, { maxBytes: 4 * MAX_NOTE_CHARS }).catch((err: unknown) => {
    if (err instanceof ToolError && err.code === "file_not_found") return undefined;
    throw err;
  });
  if (text === undefined) return undefined;
  const header = HEADER.exec(text);
  return { note: header === null ? text : text.slice(header[0].length), updatedAt: header?.[1] ?? "", session: header?.[2] ?? "" };
}

export async function writeHandoff(ctx: ToolContext, note: string): Promise<HandoffNote> {
  await ensureDataDir(ctx, "");
  const written: HandoffNote = { note, updatedAt: new Date().toISOString(), session: ctx.session.slice(0, 8) };
  await ctx.fs.writeFile(HANDOFF_FILE, `<!-- handoff updatedAt=${written.updatedAt} session=${written.session} -->\n${note}`);
  return written;
}
