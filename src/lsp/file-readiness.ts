// A whole-project answer (about one file, or the workspace: symbols), with what each server needs
// first to earn "complete":
// TypeScript's servers get one file of every project a solution-style tsconfig references opened,
// and of every tsconfig under their workspace folder (solution-projects.ts), so they answer from
// all of them; clangd is not waited for where no compilation database can start its index
// (index-input.ts). Then the server's readiness rule (whole-project.ts) decides, and a project
// that could not be loaded makes the answer partial.
import type { WorkspaceFs } from "../workspace/workspace-fs.ts";
import { relative } from "../lib/paths/posix-path.ts";
import type { WorkspacePath } from "../security/jail/workspace-path.ts";
import { clangdIndexMissing, type IndexInputFs } from "./index-input.ts";
import type { LanguageServer } from "./language-server.ts";
import { folderOf } from "./project-root.ts";
import { solutionFiles, type SolutionFiles } from "./solution-projects.ts";
import { tsconfigsUnder } from "./tsconfig-walk.ts";
import { type Answer, wholeProjectAnswer } from "./whole-project.ts";

/** A config larger than this is no tsconfig. */
const MAX_CONFIG_BYTES = 256 * 1024;
/** How long finding one file of a referenced project may take. */
const FIND_FILE_MS = 5_000;

/** The files to open, per server (the configs are read once; a server started again reads them again). */
const solutions = new WeakMap<LanguageServer, Promise<SolutionFiles>>();

export interface FileReadinessDeps {
  fs: WorkspaceFs;
  /** Plain stats for the compilation database lookup (the names may not exist). */
  statFs: IndexInputFs;
  languageOf(relativePath: string): string | undefined;
}

export async function fileWholeProject<T>(
  server: LanguageServer,
  ask: () => Promise<T>,
  at: { file?: WorkspacePath; signal: AbortSignal; deadline: number; deps: FileReadinessDeps },
): Promise<Answer<T>> {
  const { fs } = at.deps;
  const typescript = server.launch.spec.languages.includes("typescript");
  const notLoaded = typescript ? await loadSolution(server, at) : undefined;
  const file = at.file;
  const taskMissing =
    file === undefined
      ? undefined
      : () =>
          clangdIndexMissing(at.deps.statFs, file, {
            folder: folderOf(fs.folders, file) ?? fs.root,
            args: server.launch.args,
            relative: fs.relative(file),
          });
  const answer = await wholeProjectAnswer(server, ask, {
    deadline: at.deadline,
    signal: at.signal,
    ...(server.launch.spec.id === "clangd" && taskMissing !== undefined ? { taskMissing } : {}),
  });
  if (notLoaded === undefined) return answer;
  return { value: answer.value, complete: false, why: answer.why === undefined ? notLoaded : `${answer.why}; ${notLoaded}` };
}

/** Opens one file of each referenced project in the server; why some project is not loaded, or undefined. */
async function loadSolution(server: LanguageServer, at: { signal: AbortSignal; deps: FileReadinessDeps }): Promise<string | undefined> {
  const { fs, languageOf } = at.deps;
  let found = solutions.get(server);
  if (found === undefined) {
    found = solutionFiles(server.launch.root, {
      readText: (path) => fs.readText(path, { maxBytes: MAX_CONFIG_BYTES }).catch(() => undefined),
      findFile: async (dir, wanted) => {
        const signal = AbortSignal.any([at.signal, AbortSignal.timeout(FIND_FILE_MS)]);
        const start = await fs.resolve(dir).catch(() => undefined);
        if (start === undefined) return undefined;
        for await (const entry of fs.walk(fs.relative(start) || ".", { maxDepth: 16, includeHidden: false, signal }))
          if (entry.kind === "file" && wanted(entry.rel)) return entry.path;
        return undefined;
      },
      ...(server.launch.spec.rootPolicy === "workspace-folder" ? { configsUnder: (dir: string) => configsUnder(fs, dir, at.signal) } : {}),
    });
    solutions.set(server, found);
  }
  const { files, missing } = await found;
  const failed: string[] = [];
  for (const file of files) {
    // Already open with the same text: nothing is sent (open-documents.ts).
    const path = await fs.resolve(file).catch(() => undefined);
    const languageId = path === undefined ? undefined : languageOf(fs.relative(path));
    const opened =
      path !== undefined &&
      languageId !== undefined &&
      (await server.sync(path, languageId).then(
        () => true,
        () => false,
      ));
    if (!opened) failed.push(relative(server.launch.root, file));
  }
  const parts = [...(missing === undefined ? [] : [missing]), ...(failed.length === 0 ? [] : [`could not open ${failed.join(", ")}`])];
  return parts.length === 0 ? undefined : `${server.launch.spec.id}: ${parts.join("; ")}`;
}

/** The tsconfig.json and jsconfig.json files under `dir` that the walk reaches (not dependencies nor ignored files). */
async function configsUnder(fs: WorkspaceFs, dir: string, signal: AbortSignal): Promise<{ configs: string[]; cut?: string }> {
  const start = await fs.resolve(dir).catch(() => undefined);
  if (start === undefined) return { configs: [], cut: `${dir} (not readable)` };
  const timeout = AbortSignal.timeout(FIND_FILE_MS);
  const configs = await tsconfigsUnder(fs, {
    dir: fs.relative(start) || ".",
    maxDepth: 16,
    jsconfig: true,
    signal: AbortSignal.any([signal, timeout]),
  });
  const cut = timeout.aborted ? `the folder (its search for tsconfig files took past ${FIND_FILE_MS / 1000} s)` : undefined;
  return { configs: configs.sort(), ...(cut === undefined ? {} : { cut }) };
}
