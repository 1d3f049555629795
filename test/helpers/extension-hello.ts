// The extension/hello a test sends when it plays the VS Code extension over a real WebSocket.
import { EXTENSION_PROTOCOL_VERSION } from "../../src/extension/protocol.ts";

export interface HelloFolder {
  name: string;
  uri: string;
  path: string;
}

/** The JSON text of an extension/hello (id "hello") from a current extension with these folders. */
export function extensionHello(workspaceFolders: readonly HelloFolder[]): string {
  return JSON.stringify({
    jsonrpc: "2.0",
    id: "hello",
    method: "extension/hello",
    params: {
      protocolVersion: EXTENSION_PROTOCOL_VERSION,
      extensionVersion: "0.1.0",
      ideVersion: "1.100.3",
      appName: "Test Editor",
      workspaceFolders,
    },
  });
}
