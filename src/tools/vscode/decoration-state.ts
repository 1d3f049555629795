// The decorations each session set, so a session's end clears them in VS Code: a review's marks
// should not outlive the conversation that made them.
import { defineToolsetState, type ToolsetState } from "../../capabilities/toolset-state.ts";
import type { ExtensionLink } from "../../capabilities/context.ts";

class DecorationOwners implements ToolsetState {
  private readonly bySession = new Map<string, Set<string>>();
  private link: Pick<ExtensionLink, "request" | "connected"> | undefined;

  add(session: string, id: string, link: Pick<ExtensionLink, "request" | "connected">): void {
    this.link = link;
    const ids = this.bySession.get(session) ?? new Set<string>();
    ids.add(id);
    this.bySession.set(session, ids);
  }

  /** This session's ids (all of them, or those of `ids` it owns). */
  owned(session: string, ids?: readonly string[]): string[] {
    const mine = [...(this.bySession.get(session) ?? [])];
    return ids === undefined ? mine : mine.filter((id) => ids.includes(id));
  }

  forget(session: string, ids: readonly string[]): void {
    const mine = this.bySession.get(session);
    for (const id of ids) mine?.delete(id);
  }

  releaseSession(session: string): void {
    const keys = this.owned(session).map((id) => decorationKey(session, id));
    this.bySession.delete(session);
    this.clearInVSCode(keys);
  }

  dispose(): void {
    const keys = [...this.bySession].flatMap(([session, ids]) => [...ids].map((id) => decorationKey(session, id)));
    this.bySession.clear();
    this.clearInVSCode(keys);
  }

  /** VS Code holds each set under its session's key (decorationKey), not the id the model gave. */
  private clearInVSCode(keys: string[]): void {
    if (keys.length > 0 && this.link?.connected) void this.link.request("extension/clearDecorations", { ids: keys }).catch(() => undefined);
  }
}

export const DECORATIONS = defineToolsetState("vscode.decorations", () => new DecorationOwners());

/** The id VS Code holds: the session's own name space, so sessions cannot clear each other's. */
export function decorationKey(session: string, id: string): string {
  return `${session}:${id}`;
}
