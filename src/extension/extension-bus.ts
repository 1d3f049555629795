// What VS Code tells the bridge that automation and other subscribers care about, published on the
// bridge's event bus: a file saved in the editor (file.saved) and a VS Code debug session that
// started or ended (debug.session), both with via "vscode". Paths become workspace-relative; a
// file saved outside the workspace is not the workspace's event and is not published.
import { isInside, relative } from "../lib/paths/posix-path.ts";
import type { ExtensionEvent } from "./extension-client-types.ts";
import type { PushOf } from "./protocol.ts";

/** js-debug's configuration types, named by their language for debug.session's subscribers. */
const LANGUAGE_OF_TYPE: Record<string, string> = {
  node: "node",
  "pwa-node": "node",
  "node-terminal": "node",
  chrome: "javascript",
  "pwa-chrome": "javascript",
  "pwa-msedge": "javascript",
  python: "python",
  debugpy: "python",
  cppdbg: "c",
  lldb: "c",
  go: "go",
};

/** The two events of the bus (src/capabilities/events/bridge-events.ts) this module publishes. */
export interface ExtensionEventPublisher {
  publish(name: "file.saved", event: { file: string; via: "vscode" }): void;
  publish(
    name: "debug.session",
    event: { phase: "start" | "end"; id: string; language: string; name: string; via: "vscode"; exitCode?: number },
  ): void;
}

export function forwardExtensionEvents(
  extension: { on(listener: (event: ExtensionEvent) => void): () => void },
  opts: { events: ExtensionEventPublisher; root: string },
): () => void {
  const { events, root } = opts;
  return extension.on((event) => {
    if (event.type !== "push") return;
    if (event.method === "extension/fileSaved") {
      const { filePath } = event.params as PushOf<"extension/fileSaved">;
      if (isInside(filePath, root)) events.publish("file.saved", { file: relative(root, filePath), via: "vscode" });
    } else if (event.method === "extension/debugSessionChanged") {
      const p = event.params as PushOf<"extension/debugSessionChanged">;
      events.publish("debug.session", {
        phase: p.phase,
        id: p.id,
        language: LANGUAGE_OF_TYPE[p.type] ?? p.type,
        name: p.name,
        via: "vscode",
        ...(p.exitCode === undefined ? {} : { exitCode: p.exitCode }),
      });
    }
  });
}
