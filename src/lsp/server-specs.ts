// The built-in language servers: how to find each one, where its projects start, what it needs at
// initialize, and when its answers about the whole project can be trusted (its readiness rule).
// Order matters: for a language, the first server that is installed and supports a request wins.
import type { BundledFile } from "../ports/lsp.ts";

/** Where a server's executable may be: shipped with the bridge, in the workspace, or on PATH. */
export type CommandSource = { bundled: BundledFile } | { workspaceBin: string } | { onPath: string };

/**
 * When a whole-project answer (references, implementations, workspace symbols, incoming calls) is
 * complete. "answers-complete": the server loads the project before it answers (TypeScript 7's
 * native server). "progress": complete once the server's work-done progress has ended. "stable":
 * after progress ended, the same answer twice `settleMs` apart (servers that index in the
 * background and answer from what they have so far). "task": once the progress task `token` has
 * ended once (then as "progress"); a task not begun within `beginWithinMs` of the server's start
 * makes the answer partial, said so (clangd indexes only what a compilation database lists).
 */
export type Readiness =
  | { rule: "answers-complete" }
  | { rule: "progress" }
  | { rule: "stable"; settleMs: number }
  | { rule: "task"; token: string; title: string; beginWithinMs: number };

export interface ServerSpec {
  /** Short and unique: "tsgo", "pyright", "gopls". */
  id: string;
  languages: readonly string[];
  command: readonly CommandSource[];
  args: readonly string[];
  /** Files or directories whose nearest directory above a file is the server's root for it. */
  rootMarkers: readonly string[];
  /**
   * Which root a file gets (project-root.ts): "nearest-marker" (unset) the nearest directory with
   * one of `rootMarkers`, one server each; "workspace-folder" the workspace folder, one server for
   * every project under it, for a server that finds each file's project itself.
   */
  rootPolicy?: "nearest-marker" | "workspace-folder";
  initializationOptions?: unknown;
  /** Answers to workspace/configuration, by section ("yaml", "python.analysis"). */
  settings?: Readonly<Record<string, unknown>>;
  readiness: Readiness;
  /** Glob patterns that claim files for this server beyond its languages' extensions (config). */
  filePatterns?: readonly string[];
  /** Offer the server push diagnostics only (no textDocument/diagnostic in the client capabilities). */
  pushDiagnosticsOnly?: boolean;
  /**
   * The server publishes a document's diagnostics more than once for the same version (what
   * parsing and binding found, then what checking found): a publication is its answer only once
   * it has published nothing for `quietMs` and has no work-done progress running or about to begin.
   */
  publishesInStages?: { quietMs: number };
  /**
   * The server reads a file another includes from disk, never its unsaved content: what it
   * predicts for an edit of such a file in the files that include it describes the file as it was.
   */
  readsIncludedFromDisk?: boolean;
  /**
   * The server skips a didChange whose text is the same (so publishes nothing): a document is
   * closed and opened again to have it analysed against a changed header or import.
   */
  refreshByReopening?: boolean;
  /**
   * How long after it started a push-only server may take to publish a file's first diagnostics
   * (it loads and analyses its project first); a call that waits past the usual few seconds within
   * this time is waiting for the server, not for nothing. Unset: the usual wait only (a server that
   * publishes nothing for a clean file must not hold every first call).
   */
  coldStartMs?: number;
  /** typescript-language-server needs a TypeScript <= 6 tsserver.js when the workspace has none. */
  tsserver?: BundledFile;
  /**
   * The line the server logs (window/logMessage) once it knows its project's files: until then a
   * whole-project answer comes from the open files only, so it is waited for (up to the call's
   * deadline, partial past it), and the first answer after it is complete.
   */
  readyLog?: { message: RegExp; what: string };
}

const JS_TS = ["typescript", "typescriptreact", "javascript", "javascriptreact"];
const NODE_ROOTS = ["tsconfig.json", "jsconfig.json", "package.json"];
/** TypeScript 7's keys for automatic type acquisition, in its configuration sections. */
const NO_TYPE_ACQUISITION = { disableAutomaticTypeAcquisition: true, tsserver: { automaticTypeAcquisition: { enabled: false } } };

export const BUILT_IN_SERVERS: readonly ServerSpec[] = [
  {
    id: "tsgo",
    languages: JS_TS,
    // TypeScript 7's native compiler (`tsc --lsp --stdio`): its platform package, shipped as an
    // optional dependency so the `tsc` the build runs stays TypeScript 5.9; then a project's or the
    // PATH's native preview (`tsgo`), which takes the same arguments.
    command: [
      { bundled: { package: "@typescript/typescript-{platform}-{arch}", path: "lib/tsc" } },
      { workspaceBin: "tsgo" },
      { onPath: "tsgo" },
    ],
    args: ["--lsp", "--stdio"],
    rootMarkers: NODE_ROOTS,
    // It finds each file's nearest tsconfig itself: a server per package loaded the shared sources
    // once per package (10 servers on hono's cold check, evicting one another under the memory cap).
    rootPolicy: "workspace-folder",
    // No automatic type acquisition: it runs `npm install @types/...@latest` from the registry into
    // a cache outside the workspace (five at once on hono's cold check, on two cores), and an answer
    // changes when an install ends though nothing in the workspace did, past kept answers.
    settings: { "js/ts": NO_TYPE_ACQUISITION, typescript: NO_TYPE_ACQUISITION, javascript: NO_TYPE_ACQUISITION },
    // Measured: all 4,001 references of a cold 2,000-file project in its first answer. It answers
    // from the projects loaded, so a solution-style config's referenced projects are opened first
    // (solution-projects.ts), and one that cannot be makes the answer partial.
    readiness: { rule: "answers-complete" },
  },
  {
    id: "typescript-language-server",
    languages: JS_TS,
    command: fromPackage("typescript-language-server", "typescript-language-server"),
    args: ["--stdio"],
    rootMarkers: NODE_ROOTS,
    // tsserver, like tsgo, opens each file in its nearest tsconfig's project.
    rootPolicy: "workspace-folder",
    tsserver: { package: "typescript", path: "lib/tsserver.js" },
    // Measured: 3 of 4,001 references cold, the rest 3.3-6.1 s later.
    readiness: { rule: "stable", settleMs: 1500 },
  },
  {
    id: "pyright",
    languages: ["python"],
    command: fromPackage("pyright", "pyright-langserver"),
    args: ["--stdio"],
    rootMarkers: ["pyrightconfig.json", "pyproject.toml", "setup.py", "setup.cfg", "requirements.txt"],
    // logLevel: the readiness line below is an information message.
    settings: { python: {}, "python.analysis": { diagnosticMode: "openFilesOnly", autoSearchPaths: true, logLevel: "Information" } },
    // Measured with 1.1.414: offered pull diagnostics, it exits (code 1, nothing on stderr) about a
    // second after it registers them; with push only it runs.
    pushDiagnosticsOnly: true,
    // Measured with 1.1.414 on click: src/click/core.py opened cold was published with no errors,
    // then 1.3 s later with its one; after an edit, decorators.py with 0 errors, then 0.1 s later
    // with the new one, both for the same version. A pass that ends with files left asks for a
    // progress token, and begins it only after its next pass.
    publishesInStages: { quietMs: 500 },
    readiness: { rule: "stable", settleMs: 1000 },
    // Measured with 1.1.414 (its traffic logged on a 603-file fixture, a loaded 2-core machine): no
    // work-done progress while it searches for the project's files, only each request's own
    // ("Finding references"); analysis reports "N files to analyze" only after a pass ended with
    // files left (publishesInStages above), no pyright/beginProgress either. A findReferences sent
    // at start was answered 24 s later from the open file alone (2 references in 1 file), just
    // before it logged "Found 302 source files"; the next answer had all 604 in 302 files. That
    // line is its readiness.
    readyLog: { message: /^(Found \d+ source files?|No source files found)/, what: "search for the project's source files" },
    // Measured: a cold pyright published a first file's diagnostics 35 s after it started on a loaded 2-core machine.
    coldStartMs: 90_000,
  },
  {
    id: "bash-language-server",
    languages: ["shellscript"],
    command: fromPackage("bash-language-server", "bash-language-server"),
    args: ["start"],
    rootMarkers: [".git"],
    readiness: { rule: "stable", settleMs: 500 },
  },
  {
    id: "yaml-language-server",
    languages: ["yaml"],
    command: fromPackage("yaml-language-server", "yaml-language-server"),
    args: ["--stdio"],
    rootMarkers: [".git"],
    // No schema store: it would be fetched from the network.
    settings: { yaml: { validate: true, hover: true, completion: true, schemaStore: { enable: false }, schemas: {} } },
    readiness: { rule: "progress" },
  },
  ...extracted("json", ["json", "jsonc"], { json: { validate: { enable: true }, schemas: [] } }),
  ...extracted("css", ["css", "scss", "less"], { css: { validate: true }, scss: { validate: true }, less: { validate: true } }),
  ...extracted("html", ["html"], { html: { validate: { scripts: true, styles: true } } }),
  {
    id: "gopls",
    languages: ["go"],
    command: [{ onPath: "gopls" }],
    args: [],
    rootMarkers: ["go.work", "go.mod"],
    readiness: { rule: "progress" },
    // Measured: 13 s to a first publication, cold, on a loaded 2-core machine (it loads every package first).
    coldStartMs: 60_000,
  },
  {
    id: "clangd",
    languages: ["c", "cpp"],
    command: [{ onPath: "clangd" }],
    args: ["--background-index", "--log=error"],
    rootMarkers: ["compile_commands.json", "compile_flags.txt", ".clangd", "CMakeLists.txt", "Makefile"],
    // Measured with clangd 14: until its background index has run it answers references from the
    // open files only (1 of 9, then 9 of 9 0.8 s later). It announces the index ("indexing") about
    // 0.1 s after the first file is opened, also when the index on disk is current (begin, then end).
    readiness: { rule: "task", token: "backgroundIndexProgress", title: "background index", beginWithinMs: 10_000 },
    coldStartMs: 60_000,
    // Measured with clangd 14: a didChange with the same text is skipped ("inputs are the same").
    refreshByReopening: true,
    // Measured with clangd 14 on cJSON: a dry-run rename of cJSON_CreateNull (cJSON.h, cJSON.c and
    // two more) predicted 11 errors (implicit declaration of the new name) that the written rename
    // does not have: each .c file was checked against cJSON.h on disk; its tests include cJSON.c
    // itself (through tests/common.h), so a .c file can be the one read from disk.
    readsIncludedFromDisk: true,
  },
];

/** A server shipped as an npm package: the bridge's own copy, else the workspace's, else PATH. */
function fromPackage(pkg: string, bin: string): CommandSource[] {
  return [{ bundled: { package: pkg, bin } }, { workspaceBin: bin }, { onPath: bin }];
}

/** vscode-langservers-extracted: one package, one server per language family. */
function extracted(name: string, languages: string[], settings: Record<string, unknown>): ServerSpec[] {
  const bin = `vscode-${name}-language-server`;
  return [
    {
      id: bin,
      languages,
      command: fromPackage("vscode-langservers-extracted", bin),
      args: ["--stdio"],
      rootMarkers: [".git", "package.json"],
      // No project of their own (a file is checked against itself and its schema): one server per
      // workspace folder, not one per package.json (hono's cold check started six JSON servers).
      rootPolicy: "workspace-folder",
      initializationOptions: { provideFormatter: true },
      settings,
      readiness: { rule: "progress" },
    },
  ];
}
