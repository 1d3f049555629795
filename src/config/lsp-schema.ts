// The config file's `lsp` key: the user's own stdio language servers, per languageId, ahead of the
// built-in one for that language. `{ "lsp": { "rust": { "command": "rust-analyzer",
// "filePatterns": ["*.rs"], "rootMarkers": ["Cargo.toml"] } } }`. src/lsp/configured-servers.ts
// turns these entries into server specs.
import * as v from "valibot";

const LanguageServerConfig = v.strictObject({
  command: v.pipe(v.string(), v.minLength(1), v.description("Executable: a name on PATH or an absolute path.")),
  args: v.optional(v.array(v.string()), []),
  filePatterns: v.optional(v.array(v.pipe(v.string(), v.minLength(1)))),
  rootMarkers: v.optional(v.array(v.pipe(v.string(), v.minLength(1)))),
  initializationOptions: v.optional(v.unknown()),
  settings: v.optional(v.record(v.string(), v.unknown())),
});

export const LspConfigSchema = v.record(
  v.pipe(v.string(), v.regex(/^[a-z][a-z0-9+#._-]{0,40}$/, 'a languageId like "rust" or "cpp"')),
  LanguageServerConfig,
);
export type LspConfig = v.InferOutput<typeof LspConfigSchema>;
