// User paths as git pathspecs: checked by the workspace jail, made relative to the workspace root
// (where git runs), and passed after "--" with --literal-pathspecs, so a path can be neither an
// option nor a glob. The last component is not resolved: git names a symlink by itself, not by its
// target, and a deleted file must still be nameable to stage its removal.
import { ToolError } from "../../errors.ts";
import { basename, dirname, isAbsolute, join, normalize } from "../../lib/paths/posix-path.ts";
import type { WorkspaceFs } from "../../workspace/workspace-fs.ts";

export async function pathspecs(fs: WorkspaceFs, paths: readonly string[]): Promise<string[]> {
  return Promise.all(paths.map((p) => pathspec(fs, p)));
}

export async function pathspec(fs: WorkspaceFs, path: string): Promise<string> {
  if (path === "")
    throw new ToolError("invalid_path", "A path is empty", {
      suggestion: 'Pass a path relative to the workspace root, or "." for all of it.',
    });
  const norm = normalize(path);
  const base = basename(norm);
  const whole = base === "" || base === "." || base === "..";
  const resolved = await fs.resolve(whole ? norm : dirname(norm), { mustExist: false });
  const parent = fs.relative(resolved);
  if (isAbsolute(parent)) {
    throw new ToolError("outside_workspace", `${path} is in another workspace folder, not in the repository at the workspace root`, {
      suggestion: "Git tools work on the repository of the workspace root; pass a path inside it.",
    });
  }
  const rel = whole ? parent : join(parent, base);
  return rel === "" ? "." : rel;
}
