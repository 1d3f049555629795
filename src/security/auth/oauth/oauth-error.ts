// OAuth error responses (RFC 6749 5.2, RFC 7591 3.2.2, RFC 7009 2.2.1): a JSON body with `error` and
// `error_description`, never cached. Thrown by the endpoints, answered by the routes.
export type OAuthErrorCode =
  | "invalid_request"
  | "invalid_client"
  | "invalid_grant"
  | "unauthorized_client"
  | "unsupported_grant_type"
  | "unsupported_response_type"
  | "unsupported_token_type"
  | "invalid_scope"
  | "invalid_target"
  | "invalid_redirect_uri"
  | "invalid_client_metadata"
  | "access_denied"
  | "server_error"
  | "temporarily_unavailable";

/** The usual status of each error: 401 for a client that failed to identify itself, 400 for the rest. */
const STATUS: Partial<Record<OAuthErrorCode, number>> = { invalid_client: 401, server_error: 500, temporarily_unavailable: 503 };

export class OAuthError extends Error {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;

  constructor(
    readonly error: OAuthErrorCode,
    description: string,
    opts: { status?: number; headers?: Readonly<Record<string, string>> } = {},
  ) {
    super(description);
    this.name = this.constructor.name;
    this.status = opts.status ?? STATUS[error] ?? 400;
    this.headers = opts.headers ?? {};
  }
}

export const NO_STORE = { "cache-control": "no-store", pragma: "no-cache" } as const;

export function jsonResponse(body: unknown, opts: { status?: number; headers?: Readonly<Record<string, string>> } = {}): Response {
  return new Response(JSON.stringify(body), {
    status: opts.status ?? 200,
    headers: { "content-type": "application/json", ...NO_STORE, ...opts.headers },
  });
}

export function oauthErrorResponse(err: OAuthError): Response {
  return jsonResponse({ error: err.error, error_description: err.message }, { status: err.status, headers: err.headers });
}
