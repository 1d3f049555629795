// VS Code's pushes on the bridge's bus: a save inside the workspace becomes file.saved (relative
// path), one outside is not the workspace's; a debug session's start and end become debug.session
// with via "vscode" and the language of its configuration type.
import { expect, it } from "vitest";
import type { BridgeEvents } from "../../../src/capabilities/events/bridge-events.ts";
import { createEventBus } from "../../../src/capabilities/events/event-bus.ts";
import { forwardExtensionEvents } from "../../../src/extension/extension-bus.ts";
import type { ExtensionEvent } from "../../../src/extension/extension-client-types.ts";

it("publishes VS Code's saves and debug sessions on the bus, and stops when unsubscribed", () => {
  const bus = createEventBus((name, err) => {
    throw new Error(`${name}: ${String(err)}`);
  });
  const saved: BridgeEvents["file.saved"][] = [];
  const sessions: BridgeEvents["debug.session"][] = [];
  bus.subscribe("file.saved", (e) => saved.push(e));
  bus.subscribe("debug.session", (e) => sessions.push(e));
  const listeners = new Set<(event: ExtensionEvent) => void>();
  const extension = {
    on(listener: (event: ExtensionEvent) => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  const push = (method: string, params: unknown) => {
    for (const l of listeners) l({ type: "push", method, params } as ExtensionEvent);
  };
  const stop = forwardExtensionEvents(extension, { events: bus, root: "/ws/app" });

  push("extension/fileSaved", { filePath: "/ws/app/src/a.ts", fileUrl: "file:///ws/app/src/a.ts" });
  push("extension/fileSaved", { filePath: "/ws/application/b.ts", fileUrl: "file:///ws/application/b.ts" });
  push("extension/debugSessionChanged", { phase: "start", id: "vscode-1", name: "Launch", type: "pwa-node" });
  push("extension/debugSessionChanged", { phase: "end", id: "vscode-1", name: "Launch", type: "pwa-node", exitCode: 0 });
  push("extension/debugSessionChanged", { phase: "start", id: "vscode-2", name: "Rust", type: "codelldb-custom" });
  push("extension/selectionChanged", {});

  expect(saved).toEqual([{ file: "src/a.ts", via: "vscode" }]);
  expect(sessions).toEqual([
    { phase: "start", id: "vscode-1", language: "node", name: "Launch", via: "vscode" },
    { phase: "end", id: "vscode-1", language: "node", name: "Launch", via: "vscode", exitCode: 0 },
    { phase: "start", id: "vscode-2", language: "codelldb-custom", name: "Rust", via: "vscode" },
  ]);
  stop();
  push("extension/fileSaved", { filePath: "/ws/app/c.ts", fileUrl: "file:///ws/app/c.ts" });
  expect(saved).toHaveLength(1);
});
