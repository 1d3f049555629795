// PKCE (RFC 7636) with S256 only, as OAuth 2.1 and the MCP authorization spec require: `plain`
// would put the secret in the browser's address bar.
import { OAuthError } from "./oauth-error.ts";
import { sha256Base64url } from "./secrets.ts";
import { tokensEqual } from "../tokens.ts";

/** code_verifier: 43-128 unreserved characters (RFC 7636 4.1). */
const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;
/** code_challenge for S256: the base64url SHA-256, 43 characters. */
const CHALLENGE = /^[A-Za-z0-9\-_]{43}$/;

export function checkChallenge(challenge: string | undefined, method: string | undefined): string {
  if (challenge === undefined) throw new OAuthError("invalid_request", "code_challenge is required (PKCE with S256)");
  if (method !== "S256")
    throw new OAuthError(
      "invalid_request",
      `code_challenge_method must be S256, got ${method === undefined ? "none (plain)" : `"${method}"`}`,
    );
  if (!CHALLENGE.test(challenge)) throw new OAuthError("invalid_request", "code_challenge is not a base64url SHA-256 (43 characters)");
  return challenge;
}

export async function verifierMatches(verifier: string | undefined, challenge: string): Promise<boolean> {
  if (verifier === undefined || !VERIFIER.test(verifier)) return false;
  return tokensEqual(await sha256Base64url(verifier), challenge);
}
