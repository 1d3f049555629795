// VS Code's terminals as resources while the extension is connected: bridge://terminal/<id> for
// each terminal listTerminals names, read as getTerminalOutput reads it (what its commands printed,
// through shell integration; the last TERMINAL_LINES lines), so the resource and the tool never
// disagree. A subscription follows the terminal's output with the extension's long poll
// (extension/terminalOutput waits for new output up to its waitMs): each answer with text is an
// update; the follow ends when the terminal exits, the extension goes, or the last subscriber leaves.
import type { ResourceContext } from "./resource-context.ts";
import { ResourceMissing } from "./resource-context.ts";

export const TERMINAL_PREFIX = "bridge://terminal/";
/** Lines of a terminal a read gives (the newest): what a model needs to see where a command is. */
export const TERMINAL_LINES = 200;
/** How long one poll waits for new output before asking again. */
const FOLLOW_WAIT_MS = 20_000;

export interface TerminalEntry {
  uri: string;
  name: string;
  title: string;
  description: string;
  mimeType: string;
}

/** The terminals open in VS Code, as resources; none while the extension is away. */
export async function terminalResources(ctx: ResourceContext): Promise<TerminalEntry[]> {
  if (!ctx.extensionConnected) return [];
  const listed = await ctx.tool("listTerminals");
  const terminals = listed.ok ? (listed.data as { terminals?: { id: string; name: string }[] } | undefined)?.terminals : undefined;
  return (terminals ?? []).map((t) => ({
    uri: `${TERMINAL_PREFIX}${encodeURIComponent(t.id)}`,
    name: `terminal-${t.id}`,
    title: `Terminal "${t.name}"`,
    description: `What the commands in VS Code's terminal "${t.name}" printed, the last ${TERMINAL_LINES} lines (getTerminalOutput).`,
    mimeType: "text/plain",
  }));
}

export function terminalIdOf(uri: string): string | undefined {
  return uri.startsWith(TERMINAL_PREFIX) ? decodeURIComponent(uri.slice(TERMINAL_PREFIX.length)) : undefined;
}

export async function readTerminal(uri: string, id: string, ctx: ResourceContext): Promise<string> {
  if (!ctx.extensionConnected) throw new ResourceMissing(uri, `${uri} needs the VS Code extension, which is not connected`);
  const outcome = await ctx.tool("getTerminalOutput", { terminal: id, maxLines: TERMINAL_LINES });
  if (!outcome.ok) throw new ResourceMissing(uri, `Resource not found: ${uri} (${outcome.text})`);
  return outcome.text;
}

/** One read of a terminal's output from `since`, waiting up to `waitMs` for some (extension/terminalOutput). */
export type TerminalOutputSource = (
  id: string,
  opts: { since?: number; waitMs: number; signal: AbortSignal },
) => Promise<{ text: string; next: number; exited: boolean }>;

/**
 * Calls `onOutput` each time the terminal prints, until the returned function is called. Refuses a
 * terminal the extension does not know (or an extension that is away). The follow ends quietly when
 * a poll fails: the extension went, and the resource list changed with it.
 */
export async function followTerminal(read: TerminalOutputSource, opts: { uri: string; onOutput(): void }): Promise<() => void> {
  const { uri, onOutput } = opts;
  const id = terminalIdOf(uri) ?? "";
  const stop = new AbortController();
  let since: number;
  try {
    // What was printed before the subscription is the starting point, not an update.
    since = (await read(id, { waitMs: 0, signal: stop.signal })).next;
  } catch (err) {
    throw new ResourceMissing(uri, `Resource not found: ${uri} (${err instanceof Error ? err.message : String(err)})`);
  }
  void (async () => {
    while (!stop.signal.aborted) {
      const out = await read(id, { since, waitMs: FOLLOW_WAIT_MS, signal: stop.signal });
      if (stop.signal.aborted) return;
      since = out.next;
      if (out.text !== "" || out.exited) onOutput();
      if (out.exited) return;
    }
  })().catch(() => undefined);
  return () => stop.abort();
}
