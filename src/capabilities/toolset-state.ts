// State a toolset keeps between calls (open watches, edit transactions, remembered test runs). It
// lives in the tool environment, never in module-level maps, so it has an owner: the environment
// creates each state once, on first use; a session's end releases what that session held; the
// bridge's stop releases everything.
import { ToolError } from "../errors.ts";

export interface ToolsetState {
  /** The session ended (closed, its grace period over, evicted): release what it held. */
  releaseSession(session: string): void;
  /** The bridge stops: release everything (watchers closed, staged text dropped). */
  dispose(): void;
}

/** Names one toolset's state and how to create it; the toolset that owns it defines it. */
export interface ToolsetStateKey<S extends ToolsetState> {
  readonly name: string;
  readonly create: () => S;
}

export function defineToolsetState<S extends ToolsetState>(name: string, create: () => S): ToolsetStateKey<S> {
  return { name, create };
}

/** The toolset states of one tool environment. */
export class ToolsetStates {
  private readonly states = new Map<ToolsetStateKey<ToolsetState>, ToolsetState>();
  private disposed = false;

  get<S extends ToolsetState>(key: ToolsetStateKey<S>): S {
    if (this.disposed) {
      throw new ToolError("cancelled", "The bridge is shutting down", { suggestion: "Call again once the bridge has restarted." });
    }
    // Each key creates its own state, so what the map holds under `key` is that key's S.
    const existing = this.states.get(key) as S | undefined;
    if (existing !== undefined) return existing;
    const created = key.create();
    this.states.set(key, created);
    return created;
  }

  releaseSession(session: string): void {
    for (const state of this.states.values()) state.releaseSession(session);
  }

  dispose(): void {
    this.disposed = true;
    for (const state of this.states.values()) state.dispose();
    this.states.clear();
  }
}
