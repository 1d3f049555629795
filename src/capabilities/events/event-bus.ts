// The bridge's event bus: tools publish what they did (a commit, a push, a test run), and automation
// subscribes later (seed ARCHITECTURE, automation hooks). In process, synchronous, typed by the
// event map in src/capabilities/events/bridge-events.ts; a failing subscriber never fails the publisher.
import type { BridgeEvents } from "./bridge-events.ts";

type EventName = keyof BridgeEvents;
type Listener<K extends EventName> = (event: BridgeEvents[K], origin: CallOrigin | undefined) => void;

/**
 * The MCP call an event came from, when a tool published it: automation's loop guard tells a hook
 * task's own tool calls (its Claude Code tags each with `_meta["claudecode/toolUseId"]`) from others.
 */
export interface CallOrigin {
  session: string;
  toolUseId?: string;
}

/** What tools get: publishing only (a call's context adds its origin). */
export interface EventPublisher {
  publish<K extends EventName>(name: K, event: BridgeEvents[K], origin?: CallOrigin): void;
}

export interface EventBus extends EventPublisher {
  /** Returns the function that unsubscribes. */
  subscribe<K extends EventName>(name: K, listener: Listener<K>): () => void;
}

export function createEventBus(onListenerError: (name: string, err: unknown) => void): EventBus {
  const listeners = new Map<EventName, Set<(event: never, origin: CallOrigin | undefined) => void>>();
  return {
    publish(name, event, origin) {
      for (const listener of listeners.get(name) ?? []) {
        try {
          (listener as Listener<typeof name>)(event, origin);
        } catch (err) {
          onListenerError(String(name), err);
        }
      }
    },
    subscribe(name, listener) {
      const set = listeners.get(name) ?? new Set();
      set.add(listener as (event: never, origin: CallOrigin | undefined) => void);
      listeners.set(name, set);
      return () => set.delete(listener as (event: never, origin: CallOrigin | undefined) => void);
    },
  };
}
