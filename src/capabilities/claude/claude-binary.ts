// Which `claude` the driver runs: --claude-binary when given (it must exist), else the one on the
// bridge's PATH, else the workspace's node_modules/.bin (a project that pins Claude Code).
import type { Runtime } from "../../ports/runtime.ts";
import { BridgeError } from "../../errors.ts";
import { join } from "../../lib/paths/posix-path.ts";

export async function findClaudeBinary(
  runtime: Pick<Runtime, "fs" | "which">,
  opts: { configured: string | undefined; root: string },
): Promise<string | undefined> {
  if (opts.configured !== undefined) {
    const stat = await runtime.fs.stat(opts.configured).catch(() => undefined);
    if (stat?.isFile !== true || (stat.mode & 0o111) === 0) {
      throw new BridgeError("config_invalid", `--claude-binary ${opts.configured} is not an executable file`);
    }
    return opts.configured;
  }
  const onPath = await runtime.which("claude");
  if (onPath !== undefined) return onPath;
  const local = join(opts.root, "node_modules", ".bin", "claude");
  const stat = await runtime.fs.stat(local).catch(() => undefined);
  return stat?.isFile === true && (stat.mode & 0o111) !== 0 ? local : undefined;
}
