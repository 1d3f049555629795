// Changes clients may subscribe to (2026-07-28 "Subscriptions"): the tool, prompt and resource
// lists, and task status (the tasks extension). Whatever changes one of them publishes here;
// every open subscriptions/listen stream, on any transport, hears it and forwards what its client
// asked for. Owned by the bridge (one per bridge), so nothing of it is module state.
import type { Params } from "../protocol/jsonrpc.ts";

export type ListKind = "toolsListChanged" | "promptsListChanged" | "resourcesListChanged";

export type Change = { kind: ListKind } | { kind: "task"; taskId: string; task: Params };

export class SubscriptionHub {
  private readonly listeners = new Set<(change: Change) => void>();

  /** Open subscriptions right now (every transport). */
  get size(): number {
    return this.listeners.size;
  }

  publish(change: Change): void {
    for (const listener of [...this.listeners]) listener(change);
  }

  /** Hears every change until the returned function is called. */
  listen(listener: (change: Change) => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }
}
