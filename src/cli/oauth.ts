// `claude-ide-bridge oauth list|revoke`: the grants the owner approved for remote clients. A running
// bridge is asked (GET /oauth/grants, POST /oauth/grants/revoke with its token, over its loopback
// listener), since it holds the state and its checks must see a revocation at once; the state of
// an issuer no bridge serves now is read and changed on disk.
import { errorMessage } from "../errors.ts";
import { lockDir } from "../lock/lock-file.ts";
import { GrantStore } from "../security/auth/oauth/grants.ts";
import { parseSelector, revokeSelected, summarize, type GrantSummary, type RevokeSelector } from "../security/auth/oauth/grant-admin.ts";
import { listStateDirs, openStateFiles } from "../security/auth/oauth/state-files.ts";
import { listLocks } from "./bridge-locks.ts";
import type { CommandContext, CommandMain } from "./command-io.ts";
import { parseFlags } from "./flags.ts";

const OAUTH_HELP = `Usage: claude-ide-bridge oauth list [--json]
       claude-ide-bridge oauth revoke <grant id> | --client <client id> | --all

The access the owner granted to remote MCP clients (OAuth 2.1, with --tls-cert or --issuer-url).
list shows each grant: id, status, client, scopes, when made and last used. revoke ends a grant
at once: its refresh token and every access token it issued stop working. A running bridge is
asked through its lock file; otherwise the state in \${CLAUDE_CONFIG_DIR:-~/.claude}/ide/oauth/ is
read and changed directly.
`;

const REQUEST_TIMEOUT_MS = 5_000;

interface IssuerGrants {
  issuer: string;
  /** "bridge on port N" or the state directory. */
  source: string;
  grants: GrantSummary[];
}

export const oauthCommand: CommandMain = async (ctx, args) => {
  const flags = parseFlags(args, { values: ["--client"], booleans: ["--help", "-h", "--json", "--all"], maxPositionals: 2 });
  const [action, grantId] = flags.positionals;
  if (flags.booleans.has("--help") || flags.booleans.has("-h") || action === undefined) {
    ctx.out(OAUTH_HELP);
    return action === undefined && !flags.booleans.has("--help") && !flags.booleans.has("-h") ? 2 : 0;
  }
  if (action === "list") return list(ctx, { json: flags.booleans.has("--json") });
  if (action === "revoke") {
    const client = flags.values.get("--client");
    const selector = parseSelector(
      grantId !== undefined ? { grant: grantId } : client !== undefined ? { client } : { all: flags.booleans.has("--all") },
    );
    if (selector === undefined) {
      ctx.err("claude-ide-bridge oauth revoke: name a grant id (see oauth list), --client <client id> or --all\n");
      return 2;
    }
    return revoke(ctx, selector);
  }
  ctx.err(`claude-ide-bridge oauth: unknown action "${action}" (list, revoke)\n`);
  return 2;
};

async function list(ctx: CommandContext, opts: { json: boolean }): Promise<number> {
  const found = await everyIssuer(ctx);
  if (opts.json) {
    ctx.out(`${JSON.stringify(found, null, 2)}\n`);
    return 0;
  }
  if (found.length === 0) {
    ctx.out(`No OAuth state: remote access was never used (state lives in ${lockDir(ctx.runtime)}/oauth).\n`);
    return 0;
  }
  for (const { issuer, source, grants } of found) {
    ctx.out(`${issuer} (${source}): ${grants.length} grant(s)\n`);
    for (const g of grants) {
      const who = g.clientName === undefined ? g.clientId : `${g.clientName} (${g.clientId})`;
      const why = g.revokedReason === undefined ? "" : ` - ${g.revokedReason}`;
      ctx.out(`  ${g.id}  ${g.status.padEnd(7)}  ${who}  [${g.scopes.join(" ")}]  made ${g.createdAt}, last used ${g.lastUsedAt}${why}\n`);
    }
  }
  return 0;
}

async function revoke(ctx: CommandContext, selector: RevokeSelector): Promise<number> {
  const running = await runningBridges(ctx);
  const revoked: string[] = [];
  for (const bridge of running) {
    const response = await ask(bridge, { path: "/oauth/grants/revoke", body: selector });
    if (response === undefined) continue;
    const ids = (response as { revoked?: unknown }).revoked;
    if (Array.isArray(ids)) revoked.push(...ids.map((id) => `${String(id)} (bridge on port ${bridge.port})`));
  }
  const served = new Set(running.map((b) => b.issuer));
  for (const { dir, issuer } of await listStateDirs(ctx.runtime.fs, `${lockDir(ctx.runtime)}/oauth`)) {
    if (served.has(issuer)) continue;
    const grants = await GrantStore.open(await openStateFiles(ctx.runtime.fs, { root: `${lockDir(ctx.runtime)}/oauth`, issuer }), {
      accessTtlMs: 3_600_000,
    });
    revoked.push(...(await revokeSelected(grants, selector)).map((id) => `${id} (${dir})`));
  }
  if (revoked.length === 0) {
    ctx.err("claude-ide-bridge oauth revoke: no active grant matched (see claude-ide-bridge oauth list)\n");
    return 1;
  }
  for (const line of revoked) ctx.out(`revoked ${line}\n`);
  return 0;
}

async function everyIssuer(ctx: CommandContext): Promise<IssuerGrants[]> {
  const found: IssuerGrants[] = (await runningBridges(ctx)).map((b) => ({
    issuer: b.issuer,
    source: `bridge on port ${b.port}`,
    grants: b.grants,
  }));
  const served = new Set(found.map((f) => f.issuer));
  const root = `${lockDir(ctx.runtime)}/oauth`;
  for (const { dir, issuer } of await listStateDirs(ctx.runtime.fs, root)) {
    if (served.has(issuer)) continue;
    try {
      const grants = await GrantStore.open(await openStateFiles(ctx.runtime.fs, { root, issuer }), { accessTtlMs: 3_600_000 });
      const now = Date.now();
      found.push({ issuer, source: `${dir}, no bridge running`, grants: grants.list().map((g) => summarize(g, now)) });
    } catch (err) {
      ctx.err(`claude-ide-bridge oauth: ${dir}: ${errorMessage(err)}\n`);
    }
  }
  return found;
}

interface RunningBridge {
  port: number;
  token: string;
  issuer: string;
  grants: GrantSummary[];
}

/** Live bridges with remote access on: each one's grants, asked for with its token. */
async function runningBridges(ctx: CommandContext): Promise<RunningBridge[]> {
  const locks = (await listLocks(ctx.runtime)).filter((l) => l.alive && l.lock.isBridge && l.lock.authToken !== undefined);
  const found: RunningBridge[] = [];
  for (const lock of locks) {
    const token = lock.lock.authToken ?? "";
    const answer = await ask({ port: lock.port, token }, { path: "/oauth/grants" });
    if (typeof answer !== "object" || answer === null) continue;
    const { issuer, grants } = answer as { issuer?: unknown; grants?: unknown };
    if (typeof issuer === "string" && Array.isArray(grants))
      found.push({ port: lock.port, token, issuer, grants: grants as GrantSummary[] });
  }
  return found;
}

/** A JSON answer of a bridge's owner endpoint, or undefined (no remote access there, or no answer). */
async function ask(bridge: { port: number; token: string }, opts: { path: string; body?: unknown }): Promise<unknown> {
  try {
    const response = await fetch(`http://127.0.0.1:${bridge.port}${opts.path}`, {
      method: opts.body === undefined ? "GET" : "POST",
      headers: { authorization: `Bearer ${bridge.token}`, ...(opts.body === undefined ? {} : { "content-type": "application/json" }) },
      ...(opts.body === undefined ? {} : { body: JSON.stringify(opts.body) }),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    if (response.status !== 200) {
      await response.body?.cancel();
      return undefined;
    }
    return await response.json();
  } catch {
    return undefined;
  }
}
