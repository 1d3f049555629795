// Tokens from an existing identity provider (--oauth-jwks-url, --oauth-issuer, --oauth-audience):
// verified with jose against the provider's JWKS, which jose fetches, caches and fetches again
// when a token names a kid it has not seen (at most every JWKS_COOLDOWN_MS, so random kids cannot
// make it hammer the provider). Scopes come from `scope` (RFC 9068) or `scp` (a list, as some providers send).
import { createRemoteJWKSet, jwtVerify } from "jose";
import { describeJoseError } from "./access-tokens.ts";
import { InvalidToken, type TokenVerifier } from "./principal.ts";
import { accessOf, splitScopes } from "./scopes.ts";

/** How long after one JWKS fetch an unknown kid waits for the next: 12 fetches a minute at most. */
export const JWKS_COOLDOWN_MS = 5_000;

/** Asymmetric algorithms only: with HS256 the provider's public key would become a shared secret. */
const ALGORITHMS = ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA"];

export interface IdentityProviderOptions {
  jwksUrl: string;
  issuer: string;
  audience: string;
  now?: () => number;
}

export function identityProviderVerifier(opts: IdentityProviderOptions): TokenVerifier {
  const keys = createRemoteJWKSet(new URL(opts.jwksUrl), {
    cooldownDuration: JWKS_COOLDOWN_MS,
    cacheMaxAge: 10 * 60_000,
    timeoutDuration: 5_000,
  });
  return {
    async verify(token) {
      let payload: Record<string, unknown>;
      try {
        ({ payload } = await jwtVerify(token, keys, {
          issuer: opts.issuer,
          audience: opts.audience,
          algorithms: ALGORITHMS,
          clockTolerance: 5,
          ...(opts.now === undefined ? {} : { currentDate: new Date(opts.now()) }),
          requiredClaims: ["exp"],
        }));
      } catch (err) {
        throw new InvalidToken(describeJoseError(err));
      }
      const scopes = scopesOf(payload);
      const clientId = [payload.client_id, payload.azp, payload.sub].find((x): x is string => typeof x === "string");
      return { kind: "oauth", access: accessOf(scopes), scopes, ...(clientId === undefined ? {} : { clientId }) };
    },
  };
}

function scopesOf(payload: Record<string, unknown>): string[] {
  if (typeof payload.scope === "string") return splitScopes(payload.scope);
  if (typeof payload.scp === "string") return splitScopes(payload.scp);
  if (Array.isArray(payload.scp)) return payload.scp.filter((s): s is string => typeof s === "string");
  return [];
}
