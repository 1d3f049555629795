// The servers the config file's `lsp` key names (src/config/lsp-schema.ts), as specs the pool starts
// ahead of the built-in server of their language.
import type { LspConfig } from "../config/lsp-schema.ts";
import type { ServerSpec } from "./server-specs.ts";

/** Configured servers as specs, each claiming its language first. */
export function configuredServers(config: LspConfig): ServerSpec[] {
  return Object.entries(config).map(([languageId, entry]) => ({
    id: `config:${languageId}`,
    languages: [languageId],
    command: [{ onPath: entry.command }],
    args: entry.args,
    rootMarkers: entry.rootMarkers ?? [".git"],
    ...(entry.initializationOptions === undefined ? {} : { initializationOptions: entry.initializationOptions }),
    ...(entry.settings === undefined ? {} : { settings: entry.settings }),
    ...(entry.filePatterns === undefined ? {} : { filePatterns: entry.filePatterns }),
    // Nothing is known of an arbitrary server: trust an answer once it is the same twice.
    readiness: { rule: "stable", settleMs: 1000 },
  }));
}
