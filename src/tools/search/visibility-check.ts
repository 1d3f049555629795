// Whether a path rg returned is one the built-in walk would have reached: not ignored by a
// .gitignore on the way to it, not hidden (unless asked), not one of the bridge's exclusions. rg
// needs this check only when the caller gave include globs, because rg's include globs override
// its ignore rules and the bridge's do not (src/lib/ignore/visibility.ts). The .gitignore files are
// read through ctx.fs, once per directory.
import { parseGitignore, type IgnoreRule } from "../../lib/ignore/gitignore-rules.ts";
import { childLevel, type IgnoreLevel } from "../../lib/ignore/ignore-levels.ts";
import { isVisible } from "../../lib/ignore/visibility.ts";
import { relative } from "../../lib/paths/posix-path.ts";
import type { WorkspacePath } from "../../security/jail/workspace-path.ts";
import { folderOf } from "../../workspace/walk.ts";
import type { ToolContext } from "../../capabilities/context.ts";

const MAX_IGNORE_FILE_BYTES = 1024 * 1024;

interface VisibilityCheck {
  /** `path` is relative to the search directory. */
  visible(path: string): Promise<boolean>;
}

export function createVisibilityCheck(
  ctx: ToolContext,
  searchDir: WorkspacePath,
  opts: { includeHidden: boolean; gitignore: boolean },
): VisibilityCheck {
  const folder = folderOf(ctx.fs, searchDir);
  const base = relative(folder, searchDir);
  const levels = new Map<string, Promise<IgnoreLevel | undefined>>();
  const inFolder = (rel: string) => (rel === "" ? folder : `${folder}/${rel}`);
  const readRules = async (path: string): Promise<IgnoreRule[]> => {
    if (!(await ctx.fs.entryStat(path).catch(() => undefined))?.isFile) return [];
    return parseGitignore(await ctx.fs.readText(path, { maxBytes: MAX_IGNORE_FILE_BYTES }).catch(() => ""));
  };
  const levelOf = (dir: string): Promise<IgnoreLevel | undefined> => {
    let level = levels.get(dir);
    if (level === undefined) {
      level = (async () => {
        const parent = dir === "" ? undefined : await levelOf(dir.includes("/") ? dir.slice(0, dir.lastIndexOf("/")) : "");
        const git = await ctx.fs.entryStat(`${inFolder(dir)}/.git`).catch(() => undefined);
        const rules = await readRules(`${inFolder(dir)}/.gitignore`);
        const exclude = git?.isDirectory ? await readRules(`${inFolder(dir)}/.git/info/exclude`) : [];
        return childLevel(parent, dir, { rules, exclude, hasGit: git !== undefined });
      })();
      levels.set(dir, level);
    }
    return level;
  };
  return {
    async visible(path) {
      const parts = path.split("/");
      for (let i = 0; i < parts.length; i++) {
        const parentDir = [base, ...parts.slice(0, i)].filter((p) => p !== "").join("/");
        const folderPath = parentDir === "" ? (parts[i] as string) : `${parentDir}/${parts[i]}`;
        const candidate = {
          name: parts[i] as string,
          isDir: i < parts.length - 1,
          folderPath,
          searchPath: parts.slice(0, i + 1).join("/"),
        };
        const level = opts.gitignore ? await levelOf(parentDir) : undefined;
        if (!isVisible(candidate, level, { includeHidden: opts.includeHidden, gitignore: opts.gitignore })) return false;
      }
      return true;
    },
  };
}
