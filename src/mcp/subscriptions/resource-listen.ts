// The resources a subscriptions/listen stream asked to hear about (`resourceSubscriptions`, MCP
// 2026-07-28; resources/subscribe's replacement): each URI is watched as resources/subscribe watches
// it (src/resources/resource-watch.ts: debounced, one OS watch per directory shared by everyone),
// and a change reaches the stream as notifications/resources/updated. A URI that names nothing, or
// that nothing tells the bridge about (the editor's selection), is left out of what the server
// agrees to, so the acknowledgement tells the client which ones it will hear about.
import type { ResourceWatch } from "../../resources/resource-watch.ts";

/** More URIs than this on one stream are refused: each may hold an OS watch. */
export const MAX_RESOURCES_PER_LISTEN = 100;

export interface WatchedResources {
  /** The URIs that will be heard about, in the order asked. */
  readonly honoured: string[];
  /** Starts delivering (after the acknowledgement went out): changes before it are not sent. */
  start(): void;
  stop(): void;
}

export async function watchResources(
  watch: Pick<ResourceWatch, "subscribe"> | undefined,
  opts: { uris: readonly string[]; onUpdated(uri: string): void },
): Promise<WatchedResources> {
  const { uris, onUpdated } = opts;
  let started = false;
  let stopped = false;
  const stops: (() => void)[] = [];
  const honoured: string[] = [];
  const unique = [...new Set(uris)].slice(0, MAX_RESOURCES_PER_LISTEN);
  if (watch !== undefined) {
    const results = await Promise.allSettled(unique.map((uri) => watch.subscribe(uri, () => started && !stopped && onUpdated(uri))));
    results.forEach((result, i) => {
      const uri = unique[i];
      if (result.status === "fulfilled" && uri !== undefined) {
        stops.push(result.value);
        honoured.push(uri);
      }
    });
  }
  return {
    honoured,
    start() {
      started = true;
    },
    stop() {
      stopped = true;
      for (const stop of stops.splice(0)) stop();
    },
  };
}
