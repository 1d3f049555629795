// `claude-ide-bridge dashboard [--port N] [--workspace DIR] [--open]`: a one-time login link to the
// dashboard of the bridge for this directory. The bridge token (from the lock file) buys a code
// valid once, for 2 minutes; the link sets an HttpOnly cookie and redirects to /dashboard, so the
// token itself never reaches the browser, its history or the page.
import { errorMessage } from "../errors.ts";
import { lockDir } from "../lock/lock-file.ts";
import { chooseLock, listLocks } from "./bridge-locks.ts";
import type { CommandMain } from "./command-io.ts";
import { parseFlags, portFlag, workspaceFlag } from "./flags.ts";

const DASHBOARD_HELP = `Usage: claude-ide-bridge dashboard [--port <n>] [--workspace <dir>] [--open]

Prints a one-time login link to the dashboard of the running bridge for the directory (default: the
current one) or of the given port: live activity, latency, sessions, language servers and health.
The link works once, within 2 minutes; it signs the browser in with a cookie for 12 hours.
--open also opens it in the default browser (xdg-open or open).
`;

export const dashboardCommand: CommandMain = async (ctx, args) => {
  const flags = parseFlags(args, { values: ["--port", "--workspace"], booleans: ["--open", "--help", "-h"] });
  if (flags.booleans.has("--help") || flags.booleans.has("-h")) {
    ctx.out(DASHBOARD_HELP);
    return 0;
  }
  const port = portFlag(flags);
  const cwd = workspaceFlag(flags, ctx.runtime.paths.cwd);
  const chosen = await chooseLock(ctx.runtime, await listLocks(ctx.runtime), { port, cwd });
  const token = chosen?.lock.authToken;
  if (chosen === undefined || token === undefined) {
    const which = port !== undefined ? `on port ${port}` : `whose workspace contains ${cwd}`;
    ctx.err(
      `claude-ide-bridge: no running bridge ${which} (lock files in ${lockDir(ctx.runtime)}); start one, or see claude-ide-bridge status\n`,
    );
    return 1;
  }
  const base = `http://127.0.0.1:${chosen.port}`;
  let path: string;
  try {
    const response = await fetch(`${base}/dashboard/login-link`, { method: "POST", headers: { authorization: `Bearer ${token}` } });
    const body: unknown = await response.json().catch(() => undefined);
    if (!response.ok || typeof body !== "object" || body === null || !("path" in body) || typeof body.path !== "string") {
      ctx.err(
        `claude-ide-bridge: the bridge on port ${chosen.port} gave no login link (HTTP ${response.status}); is it an older version without the dashboard?\n`,
      );
      return 1;
    }
    path = body.path;
  } catch (err) {
    ctx.err(`claude-ide-bridge: could not reach the bridge on port ${chosen.port}: ${errorMessage(err)}\n`);
    return 1;
  }
  const url = `${base}${path}`;
  ctx.out(`${url}\n`);
  if (flags.booleans.has("--open")) {
    const opener = (await ctx.runtime.which("xdg-open")) ?? (await ctx.runtime.which("open"));
    if (opener === undefined) ctx.err("claude-ide-bridge: no xdg-open or open here; open the link above yourself\n");
    else {
      const env = Object.fromEntries(Object.entries(ctx.runtime.env).filter((e): e is [string, string] => e[1] !== undefined));
      ctx.runtime.spawn(opener, [url], { cwd, env });
    }
  }
  return 0;
};
