// The token endpoint (OAuth 2.1 3.2): authorization codes for tokens (the code bound to client,
// redirect URI, PKCE challenge and resource), and refresh tokens for new ones, rotated each time.
// Public clients only: a client that tries to authenticate is told so.
import { checkResource } from "./authorize-endpoint.ts";
import { readForm, type Params } from "./form.ts";
import type { Grant } from "./grants.ts";
import { jsonResponse, OAuthError } from "./oauth-error.ts";
import { verifierMatches } from "./pkce.ts";
import { splitScopes } from "./scopes.ts";
import { charge, type ServerContext } from "./server-context.ts";

const MAX_FORM_BYTES = 16 * 1024;

export async function tokenRequest(ctx: ServerContext, request: Request): Promise<Response> {
  charge(ctx, "token");
  if (request.headers.get("authorization") !== null)
    throw new OAuthError("invalid_client", "this server has public clients only: send client_id in the body, no client authentication", {
      headers: {
        "www-authenticate": 'Basic realm="claude-ide-bridge"',
      },
    });
  const form = await readForm(request, MAX_FORM_BYTES);
  if (form.has("client_secret") || form.has("client_assertion"))
    throw new OAuthError("invalid_client", "this server has public clients only: no client_secret or client_assertion");
  const grantType = form.get("grant_type");
  if (grantType === "authorization_code") return exchangeCode(ctx, form);
  if (grantType === "refresh_token") return refresh(ctx, form);
  if (grantType === undefined) throw new OAuthError("invalid_request", "grant_type is required");
  throw new OAuthError(
    "unsupported_grant_type",
    `grant_type ${grantType.slice(0, 100)} is not supported (authorization_code, refresh_token)`,
  );
}

async function exchangeCode(ctx: ServerContext, form: Params): Promise<Response> {
  const clientId = await knownClient(ctx, form);
  const found = ctx.requests.take(form.get("code"));
  if (found.kind === "unknown") throw new OAuthError("invalid_grant", "the authorization code is not one this server issued");
  if (found.kind === "expired") throw new OAuthError("invalid_grant", "the authorization code has expired (codes live 5 minutes)");
  if (found.kind === "replayed") {
    if (found.grantId !== undefined) await ctx.grants.revoke(found.grantId, "its authorization code was used twice");
    ctx.log("authorization code reused; its grant is revoked", { client: clientId });
    throw new OAuthError("invalid_grant", "the authorization code was already used; tokens issued for it are revoked");
  }
  const { code } = found;
  if (code.client.clientId !== clientId) throw new OAuthError("invalid_grant", "the authorization code was issued to another client");
  if (form.get("redirect_uri") !== code.redirectUri)
    throw new OAuthError("invalid_grant", "redirect_uri differs from the one of the authorization request");
  if (!(await verifierMatches(form.get("code_verifier"), code.challenge)))
    throw new OAuthError("invalid_grant", "code_verifier does not match the code_challenge (PKCE S256)");
  checkResource(form.get("resource"), code.resource);
  const { grant, refreshToken } = await ctx.grants.create(code.client, { scopes: code.scopes, resource: code.resource });
  const codeValue = form.get("code");
  if (codeValue !== undefined) ctx.requests.exchanged(codeValue, grant.id);
  ctx.log("grant created", { grant: grant.id, client: clientId, scopes: grant.scopes.join(" ") });
  return tokenResponse(ctx, grant, { refreshToken, scopes: grant.scopes });
}

async function refresh(ctx: ServerContext, form: Params): Promise<Response> {
  const clientId = await knownClient(ctx, form);
  checkResource(form.get("resource"), ctx.endpoints.resource);
  const token = form.get("refresh_token");
  if (token === undefined) throw new OAuthError("invalid_request", "refresh_token is required");
  // Checked before rotating, so a request for too much does not use the token up.
  const requested = splitScopes(form.get("scope"));
  const before = await ctx.grants.ofRefreshToken(token);
  if (before !== undefined && requested.some((s) => !before.scopes.includes(s)))
    throw new OAuthError("invalid_scope", `a refresh may narrow the scopes, not widen them (granted: ${before.scopes.join(" ")})`);
  const { grant, refreshToken } = await ctx.grants.rotate(token, clientId);
  return tokenResponse(ctx, grant, { refreshToken, scopes: requested.length > 0 ? requested : grant.scopes });
}

async function knownClient(ctx: ServerContext, form: Params): Promise<string> {
  const clientId = form.get("client_id");
  if (clientId === undefined) throw new OAuthError("invalid_client", "client_id is required");
  try {
    await ctx.clients.resolve(clientId);
  } catch (err) {
    if (err instanceof OAuthError) throw new OAuthError("invalid_client", err.message);
    throw err;
  }
  return clientId;
}

async function tokenResponse(
  ctx: ServerContext,
  grant: Grant,
  opts: { refreshToken: string; scopes: readonly string[] },
): Promise<Response> {
  const access = await ctx.tokens.issue(grant, opts.scopes);
  return jsonResponse({
    access_token: access.token,
    token_type: "Bearer",
    expires_in: access.expiresIn,
    refresh_token: opts.refreshToken,
    scope: opts.scopes.join(" "),
  });
}
