// What the authorization server's endpoints share: its documents' URLs, stores and limits.
import type { AccessTokens } from "./access-tokens.ts";
import type { AuthorizationRequests } from "./authorization-requests.ts";
import type { ClientStore } from "./clients.ts";
import type { GrantStore } from "./grants.ts";
import type { Endpoints } from "./metadata.ts";
import { OAuthError } from "./oauth-error.ts";
import type { TokenBucket } from "./rate-limit.ts";
import type { SigningKeys } from "./signing-keys.ts";

export type LimitedEndpoint = "authorize" | "approve" | "token" | "register" | "revoke";

export interface ServerContext {
  endpoints: Endpoints;
  /** The bridge token: typing it on the approval page is what makes someone the owner. */
  ownerToken: string;
  keys: SigningKeys;
  clients: ClientStore;
  grants: GrantStore;
  requests: AuthorizationRequests;
  tokens: AccessTokens;
  limits: Readonly<Record<LimitedEndpoint, TokenBucket>>;
  now(): number;
  /** Notable events (grants made and revoked, refused approvals); never a secret. */
  log(message: string, data?: Record<string, unknown>): void;
}

/** Takes a token from an endpoint's bucket, or refuses with 429 and Retry-After. */
export function charge(ctx: ServerContext, endpoint: LimitedEndpoint): void {
  const wait = ctx.limits[endpoint].take();
  if (wait > 0)
    throw new OAuthError("temporarily_unavailable", `too many ${endpoint} requests; retry in ${Math.ceil(wait / 1000)} s`, {
      status: 429,
      headers: {
        "retry-after": String(Math.ceil(wait / 1000)),
      },
    });
}
