// Token revocation (RFC 7009). Revoking either token of a grant revokes the grant: its refresh
// token and every access token it issued (they name it in `sid`). An unknown or expired token is
// no error (RFC 7009 2.2); a token of another client is refused.
import { readForm } from "./form.ts";
import { OAuthError } from "./oauth-error.ts";
import { charge, type ServerContext } from "./server-context.ts";

export async function revokeRequest(ctx: ServerContext, request: Request): Promise<Response> {
  charge(ctx, "revoke");
  const form = await readForm(request, 16 * 1024);
  const token = form.get("token");
  if (token === undefined || token === "") throw new OAuthError("invalid_request", "token is required");
  const clientId = form.get("client_id");
  if (clientId === undefined) throw new OAuthError("invalid_client", "client_id is required (public clients identify themselves so)");
  const grantId = await grantOf(ctx, token);
  if (grantId !== undefined) {
    const grant = ctx.grants.get(grantId);
    if (grant !== undefined && grant.clientId !== clientId)
      throw new OAuthError("invalid_request", "the token was issued to another client");
    if (await ctx.grants.revoke(grantId, "revoked by its client (RFC 7009)"))
      ctx.log("grant revoked by its client", { grant: grantId, client: clientId });
  }
  return new Response(null, { status: 200, headers: { "cache-control": "no-store" } });
}

async function grantOf(ctx: ServerContext, token: string): Promise<string | undefined> {
  const byRefresh = await ctx.grants.ofRefreshToken(token);
  if (byRefresh !== undefined) return byRefresh.id;
  try {
    return (await ctx.tokens.verify(token)).grantId;
  } catch {
    return undefined;
  }
}
