// Who this server is and what it offers, in the revision-neutral form both eras start from: the
// legacy InitializeResult and the modern DiscoverResult (src/mcp/protocol/revisions/) each put it
// in their own shape.
import { PACKAGE_VERSION, SERVER_NAME } from "../../version.ts";

export const SERVER_INFO = { name: SERVER_NAME, title: "Claude IDE Bridge", version: PACKAGE_VERSION } as const;

/** A fresh object each time: codecs add to it (extensions) without touching the other era's. */
export function serverCapabilities(): Record<string, Record<string, unknown>> {
  return {
    tools: { listChanged: true },
    logging: {},
    resources: { subscribe: true, listChanged: true },
    prompts: {},
    completions: {},
    // MCP Skills (SEP-2640): the bridge's workflows as skill:// files (src/skills/).
    extensions: { "io.modelcontextprotocol/skills": {} },
  };
}
