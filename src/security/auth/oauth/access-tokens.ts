// Access tokens as JWTs (RFC 9068, `typ: at+jwt`) signed ES256 with jose: issuer = the issuer URL,
// audience = the resource (/mcp), scope, client_id, and `sid` = the grant, so revoking a grant
// stops its tokens at once. Checked with jose (signature, alg, typ, iss, aud, exp, nbf) and one
// lookup of the grant: the same cost for every request.
import { errors, jwtVerify, SignJWT } from "jose";
import type { Grant } from "./grants.ts";
import { InvalidToken, type Principal, type TokenVerifier } from "./principal.ts";
import { accessOf, splitScopes } from "./scopes.ts";
import { randomSecret } from "./secrets.ts";
import type { SigningKeys } from "./signing-keys.ts";

/** Clock difference tolerated on exp and nbf, in seconds. */
const CLOCK_TOLERANCE_S = 5;

interface AccessTokenOptions {
  issuer: string;
  resource: string;
  ttlSeconds: number;
  /** Whether a grant still stands (GrantStore.isActive). */
  grantActive(grantId: string): boolean;
  now?: () => number;
}

export class AccessTokens implements TokenVerifier {
  private readonly now: () => number;

  constructor(
    private readonly keys: SigningKeys,
    private readonly opts: AccessTokenOptions,
  ) {
    this.now = opts.now ?? Date.now;
  }

  async issue(grant: Grant, scopes: readonly string[]): Promise<{ token: string; expiresIn: number }> {
    const { kid, key } = await this.keys.current();
    const now = Math.floor(this.now() / 1000);
    const token = await new SignJWT({ scope: scopes.join(" "), client_id: grant.clientId, sid: grant.id })
      .setProtectedHeader({ alg: "ES256", kid, typ: "at+jwt" })
      .setIssuer(this.opts.issuer)
      .setAudience(grant.resource)
      .setSubject("owner")
      .setIssuedAt(now)
      .setNotBefore(now)
      .setExpirationTime(now + this.opts.ttlSeconds)
      .setJti(randomSecret(16))
      .sign(key);
    return { token, expiresIn: this.opts.ttlSeconds };
  }

  async verify(token: string): Promise<Principal> {
    let payload: Record<string, unknown>;
    try {
      ({ payload } = await jwtVerify(token, this.keys.verificationKeys, {
        issuer: this.opts.issuer,
        audience: this.opts.resource,
        algorithms: ["ES256"],
        typ: "at+jwt",
        clockTolerance: CLOCK_TOLERANCE_S,
        currentDate: new Date(this.now()),
        requiredClaims: ["exp", "iat", "sub", "jti"],
      }));
    } catch (err) {
      throw new InvalidToken(describeJoseError(err));
    }
    const { sid, client_id: clientId, scope } = payload;
    if (typeof sid !== "string" || typeof clientId !== "string" || typeof scope !== "string")
      throw new InvalidToken("the token lacks sid, client_id or scope");
    if (!this.opts.grantActive(sid)) throw new InvalidToken("the grant of this token was revoked");
    const scopes = splitScopes(scope);
    return { kind: "oauth", access: accessOf(scopes), scopes, clientId, grantId: sid };
  }
}

/** What was wrong with a token, in words safe for a WWW-Authenticate quoted string. */
export function describeJoseError(err: unknown): string {
  if (err instanceof errors.JWTExpired) return "the token has expired";
  if (err instanceof errors.JWTClaimValidationFailed) {
    if (err.claim === "nbf") return "the token is not valid yet (nbf)";
    return `the token's ${err.claim} claim is not accepted here`;
  }
  if (err instanceof errors.JOSEAlgNotAllowed) return "the token's algorithm is not accepted";
  if (err instanceof errors.JWSSignatureVerificationFailed) return "the token's signature does not verify";
  if (err instanceof errors.JWKSNoMatchingKey) return "the token names no key this server knows";
  if (err instanceof errors.JWTInvalid || err instanceof errors.JWSInvalid || err instanceof errors.JOSENotSupported)
    return "the token is not a well-formed signed JWT";
  if (err instanceof errors.JWKSTimeout) return "the identity provider's keys could not be fetched in time";
  return "the token could not be verified";
}
