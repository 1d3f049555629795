// The toolset states of one tool environment: created once per key, released per session, all
// disposed at the bridge's stop, and refused after it.
import { describe, expect, it } from "vitest";
import { defineToolsetState, ToolsetStates, type ToolsetState } from "../../../src/capabilities/toolset-state.ts";
import { TransactionStore } from "../../../src/services/edit-transactions/transaction-store.ts";
import { WatchStore } from "../../../src/tools/files/watch-store.ts";

class Recorder implements ToolsetState {
  readonly released: string[] = [];
  disposed = false;
  releaseSession(session: string): void {
    this.released.push(session);
  }
  dispose(): void {
    this.disposed = true;
  }
}

describe("ToolsetStates", () => {
  it("creates each key's state once and hands every caller the same one", () => {
    let created = 0;
    const key = defineToolsetState("test.recorder", () => {
      created += 1;
      return new Recorder();
    });
    const states = new ToolsetStates();
    expect(states.get(key)).toBe(states.get(key));
    expect(created).toBe(1);
    expect(new ToolsetStates().get(key)).not.toBe(states.get(key));
  });

  it("passes a session's end to every state, and disposes them all at stop, after which it refuses", () => {
    const a = defineToolsetState("test.a", () => new Recorder());
    const b = defineToolsetState("test.b", () => new Recorder());
    const states = new ToolsetStates();
    const [ra, rb] = [states.get(a), states.get(b)];
    states.releaseSession("s1");
    expect(ra.released).toEqual(["s1"]);
    expect(rb.released).toEqual(["s1"]);
    states.dispose();
    expect(ra.disposed && rb.disposed).toBe(true);
    expect(() => states.get(a)).toThrow(/shutting down/);
  });
});

describe("the stores release by session", () => {
  it("WatchStore closes that session's watchers and keeps the others'", () => {
    const store = new WatchStore();
    const closed: string[] = [];
    const open = (session: string) => {
      const watch = store.add(session, "", { glob: undefined, includeHidden: false });
      watch.tree = { close: () => closed.push(watch.id), directories: 1 };
      return watch;
    };
    const mine = open("s1");
    const theirs = open("s2");
    store.releaseSession("s1");
    expect(closed).toEqual([mine.id]);
    expect(store.size).toBe(1);
    store.dispose();
    expect(closed).toEqual([mine.id, theirs.id]);
    expect(store.size).toBe(0);
  });

  it("TransactionStore drops that session's transactions", () => {
    const store = new TransactionStore();
    const mine = store.begin("s1");
    const theirs = store.begin("s2");
    store.releaseSession("s1");
    expect(() => store.get("s1", mine.id)).toThrow(/No open transaction/);
    expect(store.get("s2", theirs.id)).toBe(theirs);
    store.dispose();
    expect(store.size).toBe(0);
  });
});
