// The diffs the bridge has open in VS Code and is waiting on (Claude Code's openDiff blocks until
// the user accepts or rejects, protocol.md A5). Keyed by tab name: a new diff for the same tab
// rejects the one before it. A disconnect (of VS Code, or of the Claude Code that asked) rejects
// what it leaves behind, so no call waits forever.
export type DiffOutcome = { outcome: "accepted"; contents: string } | { outcome: "rejected" };

interface PendingDiff {
  /** Who asked (an MCP session id): its end rejects the diff. */
  owner: string;
  settle(outcome: DiffOutcome): void;
}

export class DiffRegistry {
  private readonly pending = new Map<string, PendingDiff>();

  get size(): number {
    return this.pending.size;
  }

  /** Waits for the user's answer on `tabName`; an earlier diff on that tab is rejected. */
  add(tabName: string, owner: string): Promise<DiffOutcome> {
    this.settle(tabName, { outcome: "rejected" });
    return new Promise((resolve) => this.pending.set(tabName, { owner, settle: resolve }));
  }

  /** Settles one diff; false when none waits on that tab (answered already, or not ours). */
  settle(tabName: string, outcome: DiffOutcome): boolean {
    const found = this.pending.get(tabName);
    if (found === undefined) return false;
    this.pending.delete(tabName);
    found.settle(outcome);
    return true;
  }

  /** The tab names waiting, all or one owner's. */
  tabs(owner?: string): string[] {
    return [...this.pending].filter(([, p]) => owner === undefined || p.owner === owner).map(([tab]) => tab);
  }

  /** Rejects every diff (or one owner's); returns their tab names. */
  rejectAll(owner?: string): string[] {
    const tabs = this.tabs(owner);
    for (const tab of tabs) this.settle(tab, { outcome: "rejected" });
    return tabs;
  }
}
