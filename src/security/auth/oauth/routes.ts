// The HTTP surface of remote access: the /.well-known discovery documents and the /oauth endpoints
// (authorize, token, register, revoke, jwks), plus the owner's grant list for the CLI. Each
// endpoint answers OAuth errors as RFC 6749 says; anything unexpected is a logged 500 that names
// nothing internal.
import { Hono, type Context } from "hono";
import { bearerToken, tokensEqual } from "../tokens.ts";
import { answerApproval, showApproval } from "./authorize-endpoint.ts";
import { readJson } from "./form.ts";
import { parseSelector, revokeSelected, summarize } from "./grant-admin.ts";
import { authorizationServerMetadata, openIdConfiguration, protectedResourceMetadata, wellKnownAt } from "./metadata.ts";
import { jsonResponse, OAuthError, oauthErrorResponse } from "./oauth-error.ts";
import { registerRequest } from "./register-endpoint.ts";
import type { RemoteAccess } from "./remote-access.ts";
import { revokeRequest } from "./revoke-endpoint.ts";
import type { ServerContext } from "./server-context.ts";
import { tokenRequest } from "./token-endpoint.ts";

type Endpoint = (ctx: ServerContext, request: Request) => Promise<Response>;

interface RouteOptions {
  /** Resolves once remote access is set up (the TLS port may be known only after listening). */
  remote(): Promise<RemoteAccess>;
  onError(message: string, data: Record<string, unknown>): void;
}

export function oauthRoutes(opts: RouteOptions): Hono {
  const app = new Hono();
  const serve = (endpoint: Endpoint) => async (c: Context) => {
    const remote = await opts.remote();
    if (remote.server === undefined) return c.json({ error: "not found", path: c.req.path }, 404);
    try {
      return await endpoint(remote.server, c.req.raw);
    } catch (err) {
      if (err instanceof OAuthError) return oauthErrorResponse(err);
      opts.onError("OAuth endpoint failed", { path: c.req.path, error: String(err) });
      return oauthErrorResponse(new OAuthError("server_error", "the server failed to answer; see its log"));
    }
  };
  app.get("/.well-known/*", async (c) => {
    const remote = await opts.remote();
    const path = c.req.path.startsWith(`${remote.prefix}/`) && remote.prefix !== "" ? c.req.path.slice(remote.prefix.length) : c.req.path;
    const kind = wellKnownAt(path, remote.prefix);
    const cache = { "cache-control": "public, max-age=300" };
    if (kind === "protected-resource")
      return jsonResponse(protectedResourceMetadata(remote.endpoints, remote.authorizationServer), { headers: cache });
    if (kind !== undefined && remote.server !== undefined)
      return jsonResponse(
        kind === "openid-configuration" ? openIdConfiguration(remote.endpoints) : authorizationServerMetadata(remote.endpoints),
        {
          headers: cache,
        },
      );
    return c.json({ error: "not found", path: c.req.path }, 404);
  });
  app.get("/oauth/authorize", serve(showApproval));
  app.post("/oauth/authorize", serve(answerApproval));
  app.post("/oauth/token", serve(tokenRequest));
  app.post("/oauth/register", serve(registerRequest));
  app.post("/oauth/revoke", serve(revokeRequest));
  app.get(
    "/oauth/jwks",
    serve(async (ctx) => jsonResponse(ctx.keys.jwks(), { headers: { "cache-control": "public, max-age=300" } })),
  );
  app.get("/oauth/grants", serve(ownerOnly(async (ctx) => jsonResponse(grantList(ctx)))));
  app.post(
    "/oauth/grants/revoke",
    serve(
      ownerOnly(async (ctx, request) => {
        const selector = parseSelector(await readJson(request, 4096));
        if (selector === undefined)
          throw new OAuthError("invalid_request", 'name what to revoke: {"grant": id}, {"client": id} or {"all": true}');
        const revoked = await revokeSelected(ctx.grants, selector);
        if (revoked.length > 0) ctx.log("grants revoked by the owner", { grants: revoked.join(" ") });
        return jsonResponse({ revoked });
      }),
    ),
  );
  return app;
}

function grantList(ctx: ServerContext): Record<string, unknown> {
  const now = ctx.now();
  return {
    issuer: ctx.endpoints.issuer,
    grants: ctx.grants.list().map((g) => summarize(g, now)),
    clients: ctx.clients.list().map((c) => ({ ...c, createdAt: new Date(c.createdAt).toISOString() })),
  };
}

/** The grant list and its revocation are the owner's: the bridge token, not an OAuth token. */
function ownerOnly(endpoint: Endpoint): Endpoint {
  return async (ctx, request) => {
    if (!tokensEqual(bearerToken(request.headers.get("authorization")), ctx.ownerToken))
      throw new OAuthError("invalid_client", "the grant list needs the bridge token (claude-ide-bridge print-token)", {
        headers: {
          "www-authenticate": 'Bearer realm="claude-ide-bridge"',
        },
      });
    return endpoint(ctx, request);
  };
}
