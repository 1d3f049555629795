// Whole-workspace and directory diagnostics of Python through pyright's command line, the check a
// project's CI runs, instead of one language-server request per file: on the Python fixture of
// bench/lsp-truth.mjs (`pyworkspace`) the CLI over the workspace took 4.4 s where the requests took
// 9.5 s cold and 6.6 s warm. The files are named on its command line (at most MAX_NAMED_FILES a
// run), so each is checked whatever the config's `include` says, as the server checks a file it
// is asked about, and the runs' files are returned so that the servers check only the rest. pyright
// runs none of the project's code. Its CLI reports errors, warnings and information, not the hints
// the server adds (unused names, unreachable code).
import type { ToolContext } from "../../capabilities/context.ts";
import { errorMessage } from "../../errors.ts";
import { pathArgument } from "../../capabilities/exec/toolchain.ts";
import { listFiles } from "../search/file-list.ts";
import { isDependencyPath } from "../conventions/test-files.ts";
import { checkerFailure } from "./checker-failure.ts";
import { parsePyrightJson } from "./parsers/pyright-json.ts";
import type { ProjectChecks } from "./project-checkers.ts";

const PYTHON = [".py", ".pyi"];
/** Files named on one command line; more are checked in further runs. */
const MAX_NAMED_FILES = 400;
/** Files one call checks this way; the rest are left to the language server's bound. */
const MAX_FILES = 2000;
const RUN_TIMEOUT_MS = 180_000;
const MAX_OUTPUT_BYTES = 16 * 1024 * 1024;
const SOURCE = "pyright (CLI)";

/** The Python files under `under` (root-relative, or the workspace) checked by pyright's CLI, within `deadline` (epoch ms). */
export async function checkPythonFiles(ctx: ToolContext, opts: { under: string | undefined; deadline: number }): Promise<ProjectChecks> {
  const out: ProjectChecks = { diagnostics: [], sources: [], skipped: [], checked: new Set() };
  if (!(await ctx.exec.hasToolchain("pyright"))) return out;
  let files: string[];
  try {
    files = await pythonFilesUnder(ctx, opts.under ?? ".");
  } catch (err) {
    out.skipped.push({ source: SOURCE, reason: `${errorMessage(err)}; the Python files were checked file by file instead` });
    return out;
  }
  const batches: string[][] = [];
  for (let i = 0; i < files.length; i += MAX_NAMED_FILES) batches.push(files.slice(i, i + MAX_NAMED_FILES));
  let unchecked = 0;
  for (const [i, batch] of batches.entries()) {
    const left = opts.deadline - Date.now();
    if (left <= 0 || ctx.signal.aborted) {
      unchecked += batch.length;
      continue;
    }
    ctx.progress(i, { total: batches.length, message: `pyright over ${batch.length} Python file(s) (run ${i + 1} of ${batches.length})` });
    const result = await ctx.exec.runToolchain("pyright", {
      args: ["--outputjson", ...batch.map(pathArgument)],
      timeoutMs: Math.min(left, RUN_TIMEOUT_MS),
      maxOutputBytes: MAX_OUTPUT_BYTES,
      env: { NO_COLOR: "1" },
    });
    if (result.timedOut) {
      unchecked += batch.length;
      continue;
    }
    const found = (await parsePyrightJson(result.stdout, ctx.fs.root)).map((d) => ({ ...d, source: SOURCE }));
    // 0: no errors, 1: errors; anything else (a config it cannot read, bad arguments) checked nothing.
    if (found.length === 0 && result.exitCode !== 0 && result.exitCode !== 1) {
      out.skipped.push({
        source: SOURCE,
        reason: `exited ${result.exitCode}: ${checkerFailure("pyright", result.stderr.trim() || result.stdout.trim())}; its files were checked file by file instead`,
      });
      continue;
    }
    if (!out.sources.includes(SOURCE)) out.sources.push(SOURCE);
    for (const file of batch) out.checked.add(file);
    out.diagnostics.push(...found.filter((d) => !d.file.startsWith("/") && !d.file.startsWith("../")));
  }
  if (unchecked > 0)
    out.partial = `the time budget ran out before pyright checked ${unchecked} Python file(s); pass file with one of their directories to check it on its own`;
  return out;
}

/** Root-relative Python files under `path` as the search tools list them (.gitignore honoured, dependencies left out). */
async function pythonFilesUnder(ctx: ToolContext, path: string): Promise<string[]> {
  const rel = ctx.fs.relative(await ctx.fs.resolve(path));
  const prefix = rel === "" ? "" : `${rel}/`;
  const listed = await listFiles(ctx, path, { includeHidden: false, gitignore: true });
  return listed.files
    .map((f) => `${prefix}${f}`)
    .filter((f) => PYTHON.some((ext) => f.endsWith(ext)) && !isDependencyPath(f))
    .slice(0, MAX_FILES);
}
