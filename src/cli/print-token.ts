// `claude-ide-bridge print-token [--port N] [--workspace DIR]`: the auth token of the bridge for
// this directory (as the shim would pick it) or of the given port, on stdout alone, for
// `Authorization: Bearer $(claude-ide-bridge print-token)`.
import { lockDir } from "../lock/lock-file.ts";
import { folderContains } from "../lock/lock-selection.ts";
import { chooseLock, listLocks, PROBLEMS, realDirectory } from "./bridge-locks.ts";
import type { CommandMain } from "./command-io.ts";
import { parseFlags, portFlag, workspaceFlag } from "./flags.ts";

const PRINT_TOKEN_HELP = `Usage: claude-ide-bridge print-token [--port <n>] [--workspace <dir>]

Prints the auth token of the running bridge for the directory (default: the current one) or of
the given port, read from its lock file in \${CLAUDE_CONFIG_DIR:-~/.claude}/ide/.
`;

export const printToken: CommandMain = async (ctx, args) => {
  const flags = parseFlags(args, { values: ["--port", "--workspace"], booleans: ["--help", "-h"] });
  if (flags.booleans.has("--help") || flags.booleans.has("-h")) {
    ctx.out(PRINT_TOKEN_HELP);
    return 0;
  }
  const port = portFlag(flags);
  const cwd = workspaceFlag(flags, ctx.runtime.paths.cwd);
  const locks = await listLocks(ctx.runtime);
  const chosen = await chooseLock(ctx.runtime, locks, { port, cwd });
  const token = chosen?.lock.authToken;
  if (token === undefined) {
    const problem = locks.find((l) => l.port === port)?.problem;
    const which =
      port !== undefined ? `on port ${port}${problem === undefined ? "" : ` (${PROBLEMS[problem]})`}` : `whose workspace contains ${cwd}`;
    ctx.err(`claude-ide-bridge: no running bridge ${which} (lock files in ${lockDir(ctx.runtime)}); see claude-ide-bridge status\n`);
    return 1;
  }
  if (port === undefined && chosen !== undefined) {
    // Two bridges on one project: say which one this token opens, rather than pick silently.
    const real = await realDirectory(ctx.runtime, cwd);
    const others = locks.filter(
      (l) => l !== chosen && l.problem === undefined && l.lock.isBridge && l.lock.workspaceFolders.some((f) => folderContains(f, real)),
    );
    if (others.length > 0) {
      ctx.err(
        `claude-ide-bridge: ${others.length + 1} bridges serve ${cwd} (ports ${[chosen, ...others].map((l) => l.port).join(", ")}); this is the token of port ${chosen.port}, the one the shim uses; pass --port for another\n`,
      );
    }
  }
  ctx.out(`${token}\n`);
  return 0;
};
