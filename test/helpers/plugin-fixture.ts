// Plugins written by tests: a manifest and an entrypoint in a directory of their own.
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";

export interface PluginFiles {
  name: string;
  prefix: string;
  /** The entrypoint's source (an ES module exporting register). */
  code: string;
  version?: string;
  entrypoint?: string;
  /** Extra manifest fields, or overrides. */
  manifest?: Record<string, unknown>;
}

export function manifestOf(files: Pick<PluginFiles, "name" | "prefix" | "version" | "entrypoint" | "manifest">): Record<string, unknown> {
  return {
    schemaVersion: 1,
    name: files.name,
    version: files.version ?? "1.0.0",
    entrypoint: files.entrypoint ?? "index.mjs",
    toolNamePrefix: files.prefix,
    minBridgeVersion: "0.1.0",
    ...files.manifest,
  };
}

export async function writePlugin(dir: string, files: PluginFiles): Promise<string> {
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, "claude-ide-bridge-plugin.json"), JSON.stringify(manifestOf(files), null, 2));
  await writeFile(join(dir, files.entrypoint ?? "index.mjs"), files.code);
  return dir;
}

/** An entrypoint registering one read-only tool `name` that answers `answer` (a JS expression over input). */
export function oneTool(name: string, answer: string, extra = ""): string {
  return `export function register(ctx) {
  ctx.registerTool({
    name: ${JSON.stringify(name)},
    description: "Answers with a greeting for the test.",
    searchHint: "test greeting answer",
    inputSchema: { type: "object", properties: { who: { type: "string" } }, required: ["who"], additionalProperties: false },
    annotations: { readOnlyHint: true },
    ${extra}
    async handler(input, ctx) { return ${answer}; },
  });
}
`;
}
