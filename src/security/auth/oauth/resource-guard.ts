// The protected resource's side (RFC 6750, RFC 9728, MCP authorization): every request to /mcp
// carries `Authorization: Bearer`. The bridge token (compared in constant time) is the owner; any
// other token must be an access token for this resource. Refusals say where to get one: 401 with
// `WWW-Authenticate: Bearer resource_metadata=..., scope=...`, and 403 `insufficient_scope` when
// the token may not do what was asked (clients then ask the owner for more).
import { bearerToken, tokensEqual } from "../tokens.ts";
import { InvalidToken, type Principal, type TokenVerifier } from "./principal.ts";
import { SUPPORTED_SCOPES } from "./scopes.ts";

export interface ResourceGuardOptions {
  staticToken: string;
  verifier: TokenVerifier;
  /** The protected resource metadata URL (RFC 9728), named in every challenge. */
  resourceMetadataUrl: string;
}

export type Verdict = { ok: true; principal: Principal } | Refusal;

export interface Refusal {
  ok: false;
  status: 401 | 403;
  /** The WWW-Authenticate header. */
  challenge: string;
  message: string;
}

const OWNER: Principal = { kind: "owner", access: "write", scopes: SUPPORTED_SCOPES };

export class ResourceGuard {
  constructor(private readonly opts: ResourceGuardOptions) {}

  async check(authorization: string | undefined | null): Promise<Verdict> {
    const token = bearerToken(authorization);
    if (token === undefined) {
      const message =
        authorization === undefined || authorization === null ? "missing bearer token" : "the Authorization header is not `Bearer <token>`";
      return this.unauthorized(message, { error: false });
    }
    if (tokensEqual(token, this.opts.staticToken)) return { ok: true, principal: OWNER };
    let principal: Principal;
    try {
      principal = await this.opts.verifier.verify(token);
    } catch (err) {
      if (err instanceof InvalidToken) return this.unauthorized(err.message, { error: true });
      throw err;
    }
    if (principal.access === "none") return this.insufficientScope(`the token has neither ${SUPPORTED_SCOPES.join(" nor ")}`);
    return { ok: true, principal };
  }

  /** 403 for a token lacking what the request needs: the client may ask for the scopes named. */
  insufficientScope(message: string): Refusal {
    const challenge = `Bearer error="insufficient_scope", scope="${SUPPORTED_SCOPES.join(" ")}", resource_metadata="${this.opts.resourceMetadataUrl}", error_description="${quoted(message)}"`;
    return { ok: false, status: 403, challenge, message: `Forbidden: ${message}` };
  }

  private unauthorized(message: string, opts: { error: boolean }): Refusal {
    const error = opts.error ? `error="invalid_token", error_description="${quoted(message)}", ` : "";
    const challenge = `Bearer ${error}resource_metadata="${this.opts.resourceMetadataUrl}", scope="${SUPPORTED_SCOPES.join(" ")}"`;
    return {
      ok: false,
      status: 401,
      challenge,
      message: `Unauthorized: ${message}; authorize with OAuth (see WWW-Authenticate), or send the bridge token (claude-ide-bridge print-token)`,
    };
  }
}

/** Text fit for a quoted-string (RFC 9110 5.6.4) that parsers without escapes read right. */
function quoted(text: string): string {
  return text.replace(/["\\]/g, "'").replace(/[^\x20-\x7e]/g, " ");
}
