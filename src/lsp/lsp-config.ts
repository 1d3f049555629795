// The config file's `lsp` key (issue 9): the user's own stdio language servers, per languageId, ahead of the
// built-in one for that language. `{ "lsp": { "rust": { "command": "rust-analyzer",
// "filePatterns": ["*.rs"], "rootMarkers": ["Cargo.toml"] } } }`.
import * as v from "valibot";
import type { ServerSpec } from "./server-specs.ts";

const LanguageServerConfig = v.strictObject({
  command: v.pipe(v.string(), v.minLength(1), v.description("Executable: a name on PATH or an absolute path.")),
  args: v.optional(v.array(v.string()), []),
  filePatterns: v.optional(v.array(v.pipe(v.string(), v.minLength(1)))),
  rootMarkers: v.optional(v.array(v.pipe(v.string(), v.minLength(1)))),
  initializationOptions: v.optional(v.unknown()),
  settings: v.optional(v.record(v.string(), v.unknown())),
});

export const LspConfigSchema = v.record(v.pipe(v.string(), v.regex(/^[a-z][a-z0-9+#._-]{0,40}$/, "a languageId like \"rust\" or \"cpp\"")), LanguageServerConfig);
export type LspConfig = v.InferOutput<typeof LspConfigSchema>;

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
