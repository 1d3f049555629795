// The errors of a set of files as one server sees them, for an edit's before and after: each file's
// diagnostics for the content asked (on disk, or an edit's proposed text shown as an unsaved
// change), collected a few at a time, with the files whose diagnostics did not come in time named
// rather than counted as clean. Compared by file, code and message, since an edit moves lines.
import type { Diagnostic } from "vscode-languageserver-protocol";
import { ToolError } from "../errors.ts";
import type { WorkspacePath } from "../security/jail/workspace-path.ts";
import type { LanguageServer } from "./language-server.ts";

/** Files asked at once: a pulling server answers them in turn, a push-only one analyses them together. */
const CONCURRENCY = 4;

export interface ErrorAt {
  file: string;
  diagnostic: Diagnostic;
}

export interface FileSet {
  paths: readonly WorkspacePath[];
  /** The language of each path the server handles. */
  language(path: WorkspacePath): string;
  /** How a path is named in the result (a moved file by its new name). */
  name(path: WorkspacePath): string;
  /** Proposed content to ask about instead of the disk's (already sent to the server). */
  text?(path: WorkspacePath): string | undefined;
}

export interface FileErrors {
  errors: ErrorAt[];
  /** Names of the files the server said nothing about in time. */
  late: string[];
  /** Some of them were not answered because the call's time limit (`stopBy`) came first. */
  cut?: boolean;
}

export async function errorsOf(
  server: Pick<LanguageServer, "diagnosticsFor" | "sync" | "supports">,
  files: FileSet,
  opts: { pushWaitMs: number; signal: AbortSignal; stopBy?: number | undefined },
): Promise<FileErrors> {
  const errors: ErrorAt[] = [];
  const late: string[] = [];
  let cut = false;
  const stopBy = opts.stopBy ?? Number.POSITIVE_INFINITY;
  // A push-only server analyses what it has open: every file is sent before the first is waited
  // for, so it analyses them in one pass rather than a few at a time.
  if (!server.supports("textDocument/diagnostic"))
    await Promise.all(
      files.paths.map((path) => server.sync(path, files.language(path), { text: files.text?.(path) }).catch(() => undefined)),
    );
  // A pull has no deadline of its own: it is aborted at `stopBy`, the file then named late, not lost with the call.
  const bounded = Number.isFinite(stopBy)
    ? AbortSignal.any([opts.signal, AbortSignal.timeout(Math.max(stopBy - Date.now(), 1))])
    : opts.signal;
  const queue = [...files.paths];
  const worker = async () => {
    for (let path = queue.shift(); path !== undefined; path = queue.shift()) {
      if (opts.signal.aborted)
        throw new ToolError("cancelled", "The edit was cancelled before it was checked", { suggestion: "Call again to apply it." });
      if (bounded.aborted || Date.now() >= stopBy) {
        cut = true;
        late.push(files.name(path));
        continue;
      }
      const text = files.text?.(path);
      const found = await server
        .diagnosticsFor(path, files.language(path), {
          deadline: Math.min(Date.now() + opts.pushWaitMs, stopBy),
          signal: bounded,
          ...(text === undefined ? {} : { text }),
        })
        .catch((err: unknown) => {
          if (opts.signal.aborted || !bounded.aborted) throw err;
          return undefined;
        });
      if (found === undefined) cut = true;
      if (found === undefined || found.how === "none" || found.how === "unsettled") late.push(files.name(path));
      for (const d of found?.items ?? []) if ((d.severity ?? 1) === 1) errors.push({ file: files.name(path), diagnostic: d });
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, queue.length) }, worker));
  return { errors, late, ...(cut ? { cut } : {}) };
}

/** Errors of `a` not in `b`, matched by file, code and message (positions move with the edit). */
export function difference(a: readonly ErrorAt[], b: readonly ErrorAt[]): ErrorAt[] {
  const key = (e: ErrorAt) =>
    `${e.file}\0${String(e.diagnostic.code ?? "")}\0${typeof e.diagnostic.message === "string" ? e.diagnostic.message : e.diagnostic.message.value}`;
  const left = new Map<string, number>();
  for (const e of b) left.set(key(e), (left.get(key(e)) ?? 0) + 1);
  return a.filter((e) => {
    const n = left.get(key(e)) ?? 0;
    if (n === 0) return true;
    left.set(key(e), n - 1);
    return false;
  });
}
