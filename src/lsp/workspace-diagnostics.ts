// A whole-workspace (or directory) check by the language servers: every file an installed server
// handles, the project's own code first (file-rank.ts), a few at once, up to a bound and a deadline;
// what was not reached and what failed are named, never silently left out.
import { ToolError } from "../errors.ts";
import type { WorkspaceFs } from "../workspace/workspace-fs.ts";
import { fileRank } from "./file-rank.ts";
import type { CallOptions, FileDiagnosticsResult, LspService, WorkspaceDiagnostics } from "./lsp-service-types.ts";

/** Files a workspace check asks about at once. */
const WORKSPACE_CONCURRENCY = 4;
/** How often at most the check says how far it got (servers starting and pushing take seconds). */
const PROGRESS_EVERY_MS = 1000;

export interface WorkspaceCheckDeps {
  fs: Pick<WorkspaceFs, "walk">;
  languageOf(rel: string): string | undefined;
  handlesLanguage(languageId: string): Promise<boolean>;
  diagnosticsFor(file: string, call: CallOptions): Promise<FileDiagnosticsResult>;
}

export async function checkWorkspaceFiles(
  call: Parameters<LspService["workspaceDiagnostics"]>[0],
  deps: WorkspaceCheckDeps,
): Promise<WorkspaceDiagnostics> {
  const out: WorkspaceDiagnostics = { files: [], checked: 0, notChecked: 0, notReached: [], failed: [] };
  const failures = new Map<string, { reason: string; files: number }>();
  const candidates: string[] = [];
  // The walk leaves out dependencies, build output and what .gitignore ignores.
  // The walk names files relative to where it starts.
  const under = call.under === undefined || call.under === "." ? "" : `${call.under.replace(/\/+$/, "")}/`;
  for await (const entry of deps.fs.walk(call.under ?? ".", { maxDepth: 32, includeHidden: false, signal: call.signal })) {
    if (call.signal.aborted) break;
    const rel = `${under}${entry.rel}`;
    const languageId = entry.kind === "file" ? deps.languageOf(rel) : undefined;
    if (languageId !== undefined && call.except?.has(rel) !== true && (await deps.handlesLanguage(languageId))) candidates.push(rel);
  }
  // The project's own code first, so a bound leaves out benchmarks and examples rather than src/.
  const ranked = candidates.map((rel, i) => ({ rel, i, rank: fileRank(rel) })).sort((a, b) => a.rank - b.rank || a.i - b.i);
  const queue = ranked.slice(0, call.maxFiles).map((r) => r.rel);
  out.notChecked = ranked.length - queue.length;
  const found = new Map<string, FileDiagnosticsResult>();
  // A few at once: a pulling server answers each in milliseconds, a push-only one is waited for per file.
  const deadline = call.deadline ?? Number.POSITIVE_INFINITY;
  const total = queue.length;
  let done = 0;
  let told = Date.now();
  if (total > 0) call.onProgress?.(`language servers: ${total} file(s) to check`);
  const tell = () => {
    done += 1;
    if (Date.now() - told < PROGRESS_EVERY_MS) return;
    told = Date.now();
    call.onProgress?.(`language servers: ${done} of ${total} file(s) checked`);
  };
  const worker = async () => {
    for (let rel = queue.shift(); rel !== undefined && !call.signal.aborted; rel = queue.shift()) {
      if (Date.now() >= deadline) {
        out.notReached.push(rel);
        continue;
      }
      try {
        found.set(rel, await deps.diagnosticsFor(rel, call));
      } catch (err) {
        const languageId = deps.languageOf(rel) ?? "?";
        const reason = err instanceof ToolError ? err.message : String(err);
        const known = failures.get(languageId) ?? { reason, files: 0 };
        known.files += 1;
        failures.set(languageId, known);
      }
      tell();
    }
  };
  const order = queue.slice();
  await Promise.all(Array.from({ length: WORKSPACE_CONCURRENCY }, worker));
  for (const rel of order) {
    const result = found.get(rel);
    if (result !== undefined) out.files.push(result);
  }
  out.checked = out.files.length;
  out.notChecked += out.notReached.length;
  out.failed = [...failures].map(([languageId, f]) => ({
    source: `language server for ${languageId}`,
    reason: `${f.files} file(s) not checked: ${f.reason}`,
  }));
  return out;
}
