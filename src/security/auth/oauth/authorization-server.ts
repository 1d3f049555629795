// The bridge as its own OAuth 2.1 authorization server: opens the state (keys, clients, grants)
// for one issuer and wires the stores the endpoints share.
import type { Fs } from "../../../ports/fs.ts";
import { AccessTokens } from "./access-tokens.ts";
import { AuthorizationRequests } from "./authorization-requests.ts";
import type { FetchDocument } from "./client-metadata.ts";
import { ClientStore } from "./clients.ts";
import { GrantStore } from "./grants.ts";
import type { Endpoints } from "./metadata.ts";
import { TokenBucket, type RateLimit } from "./rate-limit.ts";
import type { LimitedEndpoint, ServerContext } from "./server-context.ts";
import { SigningKeys } from "./signing-keys.ts";
import { openStateFiles } from "./state-files.ts";

/** Per minute, for the whole bridge; the approval form's is low because each try is a guess at the owner's token. */
export const DEFAULT_LIMITS: Readonly<Record<LimitedEndpoint, RateLimit>> = {
  authorize: { perMinute: 120, burst: 60 },
  approve: { perMinute: 10, burst: 10 },
  token: { perMinute: 120, burst: 60 },
  register: { perMinute: 20, burst: 10 },
  revoke: { perMinute: 60, burst: 30 },
};

export interface AuthorizationServerOptions {
  fs: Fs;
  /** Where each issuer's state directory goes. */
  stateRoot: string;
  endpoints: Endpoints;
  ownerToken: string;
  tokenTtlSeconds: number;
  fetchDocument: FetchDocument;
  limits?: Partial<Record<LimitedEndpoint, RateLimit>>;
  now?: () => number;
  log?: ServerContext["log"];
}

export async function openAuthorizationServer(opts: AuthorizationServerOptions): Promise<ServerContext> {
  const now = opts.now ?? Date.now;
  const files = await openStateFiles(opts.fs, { root: opts.stateRoot, issuer: opts.endpoints.issuer });
  const accessTtlMs = opts.tokenTtlSeconds * 1000;
  const keys = await SigningKeys.open(files, { tokenTtlMs: accessTtlMs, now });
  const grants = await GrantStore.open(files, { accessTtlMs, now });
  const clients = await ClientStore.open(files, { fetchDocument: opts.fetchDocument, inUse: (id) => grants.inUse(id), now });
  const tokens = new AccessTokens(keys, {
    issuer: opts.endpoints.issuer,
    resource: opts.endpoints.resource,
    ttlSeconds: opts.tokenTtlSeconds,
    grantActive: (id) => grants.isActive(id),
    now,
  });
  const limit = (name: LimitedEndpoint) => new TokenBucket({ ...DEFAULT_LIMITS[name], ...opts.limits?.[name] }, now);
  return {
    endpoints: opts.endpoints,
    ownerToken: opts.ownerToken,
    keys,
    clients,
    grants,
    requests: new AuthorizationRequests(now),
    tokens,
    limits: {
      authorize: limit("authorize"),
      approve: limit("approve"),
      token: limit("token"),
      register: limit("register"),
      revoke: limit("revoke"),
    },
    now,
    log: opts.log ?? (() => {}),
  };
}
