// The diagnostics a pulling server gave for a file, kept with the file's text and the state of the
// workspace as the server saw it (open-documents.ts `state`): asked again with the same text at the
// same state, the server would compute the same answer, so a warm whole-workspace check does not
// open every file again (a server keeps 64 open; reopening one makes it analyse the file anew).
// Only used while the workspace watcher sees every change (the state goes up with each).
import type { Diagnostic } from "vscode-languageserver-protocol";

/** As many as a whole-workspace check covers (lsp-backend.ts); the oldest entries go first. */
const MAX_ENTRIES = 2000;

interface Entry {
  state: number;
  text: string;
  items: Diagnostic[];
}

export class PulledDiagnostics {
  private readonly byPath = new Map<string, Entry>();

  /** The kept answer for `path`, if it was computed at `state` for exactly `text`. */
  lookup(path: string, at: { state: number; text: string | undefined }): Diagnostic[] | undefined {
    const entry = this.byPath.get(path);
    return entry !== undefined && entry.state === at.state && entry.text === at.text ? entry.items : undefined;
  }

  /** Whether an answer computed at `state` is kept for `path` (then its text is worth reading). */
  has(path: string, state: number): boolean {
    return this.byPath.get(path)?.state === state;
  }

  keep(path: string, entry: Entry): void {
    this.byPath.delete(path);
    this.byPath.set(path, entry);
    if (this.byPath.size > MAX_ENTRIES) this.byPath.delete(this.byPath.keys().next().value as string);
  }

  clear(): void {
    this.byPath.clear();
  }
}
