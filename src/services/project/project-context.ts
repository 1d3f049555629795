// What getProjectContext and contextBundle tell a model about a project in one call: its kind (from
// getProjectInfo's marker files), the files worth reading first, the layout with file counts, and
// what changed recently: from git when git is on PATH and the root is a repository, else from the
// files' modification times.
import { ToolError } from "../../errors.ts";
import { displayName } from "../../lib/text/display-name.ts";
import type { ToolContext } from "../../capabilities/context.ts";
import { detectProject, type ProjectInfo } from "./detect-project.ts";
import { namesInside } from "../search/checked-names.ts";
import { listFiles } from "../search/file-list.ts";
import { workspaceOnlyNote } from "../git/partial-view.ts";
import { openRepository, type Repository } from "../git/repository.ts";

/** Files at the root a model should read first, when present (the markers are added to them). */
const KEY_FILES = [
  "CLAUDE.md",
  "AGENTS.md",
  "README.md",
  "README",
  "README.rst",
  "CONTRIBUTING.md",
  "ARCHITECTURE.md",
  "CHANGELOG.md",
  "Dockerfile",
  "docker-compose.yml",
  ".github",
];
const RECENT = 15;
/** Files stat-ed for their mtime when git cannot say what changed. */
const MTIME_SAMPLE = 3000;

interface ProjectContext {
  project: ProjectInfo;
  keyFiles: string[];
  layout: { path: string; files: number }[];
  fileCount: number;
  recent: { source: "git" | "mtime"; branch?: string | undefined; scope?: string; changes: { path: string; when: string }[] };
}

export async function collectProjectContext(ctx: ToolContext): Promise<ProjectContext> {
  const project = await detectProject(ctx);
  const rootNames = new Set((await ctx.fs.list(".")).map((e) => e.name));
  const keyFiles = [...new Set([...KEY_FILES.filter((f) => rootNames.has(f)), ...project.markers])];
  const listed = await listFiles(ctx, ".", { includeHidden: false, gitignore: true });
  // rg's names are counted and shown only once the jail finds them too (checked-names.ts).
  const files = listed.via === "rg" ? await namesInside(ctx, listed.files, { dir: "." }) : listed.files;
  const counts = new Map<string, number>();
  for (const file of files) {
    const cut = file.indexOf("/");
    const top = cut < 0 ? "." : `${file.slice(0, cut)}/`;
    counts.set(top, (counts.get(top) ?? 0) + 1);
  }
  const layout = [...counts]
    .map(([path, n]) => ({ path: displayName(path), files: n }))
    .sort((a, b) => b.files - a.files || (a.path < b.path ? -1 : 1));
  const recent = (await recentFromGit(ctx)) ?? (await recentByMtime(ctx, files));
  return { project, keyFiles, layout, fileCount: files.length, recent };
}

async function recentFromGit(ctx: ToolContext): Promise<ProjectContext["recent"] | undefined> {
  if (!(await ctx.probes.get("git")).available) return undefined;
  // Through the git tools' repository (the one runner): a hostile .git/config runs nothing here either.
  let repo: Repository;
  let log: string;
  try {
    repo = await openRepository(ctx, "read");
    log = await repo.output(["log", "-n", "40", "--name-only", "--no-color", "--no-renames", "--format=%x00%cI", "--", "."], {
      timeoutMs: 10_000,
    });
  } catch (err) {
    if (err instanceof ToolError) return undefined;
    throw err;
  }
  const changes: { path: string; when: string }[] = [];
  const seen = new Set<string>();
  for (const record of log.split("\0").slice(1)) {
    const [when = "", ...paths] = record.split("\n").filter((l) => l.trim() !== "");
    for (const path of paths) {
      if (seen.has(path) || changes.length >= RECENT) continue;
      seen.add(path);
      changes.push({ path: displayName(repo.workspacePath(path)), when });
    }
  }
  const head = await repo.run(["rev-parse", "--abbrev-ref", "HEAD"], { timeoutMs: 5000, okExitCodes: [128] }).catch(() => undefined);
  // A package of a monorepo: its history only, and the answer says so.
  const scope = workspaceOnlyNote(repo, { what: "commits" });
  return {
    source: "git",
    branch: head?.exitCode === 0 ? head.stdout.trim() : undefined,
    ...(scope === undefined ? {} : { scope }),
    changes,
  };
}

async function recentByMtime(ctx: ToolContext, files: readonly string[]): Promise<ProjectContext["recent"]> {
  const stamped: { path: string; mtime: number }[] = [];
  for (const path of files.slice(0, MTIME_SAMPLE)) {
    const st = await ctx.fs.entryStat(path).catch(() => undefined);
    if (st !== undefined) stamped.push({ path, mtime: st.mtimeMs });
  }
  stamped.sort((a, b) => b.mtime - a.mtime || (a.path < b.path ? -1 : 1));
  return {
    source: "mtime",
    changes: stamped.slice(0, RECENT).map((f) => ({ path: displayName(f.path), when: new Date(f.mtime).toISOString() })),
  };
}
