// The bridge's event bus: tools publish what they did (a commit, a push, a test run), and automation
// subscribes later (seed ARCHITECTURE, automation hooks). In process, synchronous, typed by the
// event map in src/capabilities/events/bridge-events.ts; a failing subscriber never fails the publisher.
import type { BridgeEvents } from "./bridge-events.ts";

type EventName = keyof BridgeEvents;
type Listener<K extends EventName> = (event: BridgeEvents[K]) => void;

/** What tools get: publishing only. */
export interface EventPublisher {
  publish<K extends EventName>(name: K, event: BridgeEvents[K]): void;
}

export interface EventBus extends EventPublisher {
  /** Returns the function that unsubscribes. */
  subscribe<K extends EventName>(name: K, listener: Listener<K>): () => void;
}

export function createEventBus(onListenerError: (name: string, err: unknown) => void): EventBus {
  const listeners = new Map<EventName, Set<(event: never) => void>>();
  return {
    publish(name, event) {
      for (const listener of listeners.get(name) ?? []) {
        try {
          (listener as Listener<typeof name>)(event);
        } catch (err) {
          onListenerError(String(name), err);
        }
      }
    },
    subscribe(name, listener) {
      const set = listeners.get(name) ?? new Set();
      set.add(listener as (event: never) => void);
      listeners.set(name, set);
      return () => set.delete(listener as (event: never) => void);
    },
  };
}
