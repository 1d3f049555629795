// The authorization endpoint (OAuth 2.1 4.1): GET checks the request and shows the owner the
// approval page; POST is the owner's answer. Problems with the client or its redirect URI are shown
// here (never redirected: the URI is not trusted yet); everything else goes back to the client
// with `state` and `iss` (RFC 9207), as does the code.
import { tokensEqual } from "../tokens.ts";
import { approvalPage, csrfCookieName, pageHeaders } from "./approval-page.ts";
import type { AuthorizationRequest, PendingApproval } from "./authorization-requests.ts";
import { readForm, singleParams, type Params } from "./form.ts";
import type { OAuthClient } from "./oauth-client.ts";
import { OAuthError } from "./oauth-error.ts";
import { checkChallenge } from "./pkce.ts";
import { redirectUriMatches } from "./redirect-uris.ts";
import { knownScopes, splitScopes } from "./scopes.ts";
import { charge, type ServerContext } from "./server-context.ts";

/** Wrong owner tokens an approval survives; then it is dropped and the client must start again. */
const MAX_FAILURES = 5;

export async function showApproval(ctx: ServerContext, request: Request): Promise<Response> {
  charge(ctx, "authorize");
  const params = singleParams(new URL(request.url).searchParams);
  const client = await ctx.clients.resolve(params.get("client_id"));
  const redirectUri = chooseRedirectUri(client, params.get("redirect_uri"));
  const state = params.get("state");
  let asked: AuthorizationRequest;
  try {
    asked = checkRequest(ctx, params, { client, redirectUri, state });
  } catch (err) {
    if (err instanceof OAuthError) return redirectBack(ctx, { redirectUri, state }, { error: err.error, error_description: err.message });
    throw err;
  }
  const approval = ctx.requests.addPending(asked);
  const response = approvalPage(approval, { action: ctx.endpoints.authorization, issuer: ctx.endpoints.issuer });
  response.headers.append(
    "set-cookie",
    `${csrfCookieName(approval.id)}=${approval.csrf}; Path=/; Secure; HttpOnly; SameSite=Strict; Max-Age=600`,
  );
  return response;
}

export async function answerApproval(ctx: ServerContext, request: Request): Promise<Response> {
  charge(ctx, "approve");
  checkSameOrigin(ctx, request);
  const form = await readForm(request, 8192, { joined: ["scope"] });
  const approval = ctx.requests.getPending(form.get("request"));
  if (approval === undefined)
    throw new OAuthError(
      "invalid_request",
      "this approval has expired or was already answered; start the authorization again from the client",
    );
  const csrf = form.get("csrf");
  const cookie = cookieValue(request.headers.get("cookie"), csrfCookieName(approval.id));
  if (!tokensEqual(csrf, approval.csrf) || !tokensEqual(cookie, approval.csrf))
    throw new OAuthError("access_denied", "the approval form did not come from the page this browser was shown (CSRF check failed)", {
      status: 403,
    });
  const decision = form.get("decision");
  if (decision === "deny") {
    ctx.requests.dropPending(approval.id);
    ctx.log("authorization denied by the owner", { client: approval.client.clientId });
    return redirectBack(ctx, approval, { error: "access_denied", error_description: "the owner denied the request" });
  }
  if (decision !== "approve") throw new OAuthError("invalid_request", 'decision must be "approve" or "deny"');
  if (!tokensEqual(form.get("owner_token"), ctx.ownerToken)) return wrongToken(ctx, approval);
  const chosen = splitScopes(form.get("scope"));
  const scopes = approval.scopes.filter((s) => chosen.includes(s));
  if (scopes.length === 0)
    return approvalPage(approval, {
      action: ctx.endpoints.authorization,
      issuer: ctx.endpoints.issuer,
      problem: "Choose at least one scope, or deny.",
      status: 400,
    });
  ctx.requests.dropPending(approval.id);
  const code = ctx.requests.issueCode({ ...approval, scopes });
  ctx.log("authorization approved by the owner", { client: approval.client.clientId, scopes: scopes.join(" ") });
  const response = redirectBack(ctx, approval, { code });
  response.headers.append("set-cookie", `${csrfCookieName(approval.id)}=; Path=/; Secure; HttpOnly; SameSite=Strict; Max-Age=0`);
  return response;
}

function checkRequest(
  ctx: ServerContext,
  params: Params,
  known: { client: OAuthClient; redirectUri: string; state: string | undefined },
): AuthorizationRequest {
  const responseType = params.get("response_type");
  if (responseType !== "code")
    throw new OAuthError("unsupported_response_type", `response_type must be "code", got ${JSON.stringify(responseType ?? null)}`);
  const challenge = checkChallenge(params.get("code_challenge"), params.get("code_challenge_method"));
  const resource = checkResource(params.get("resource"), ctx.endpoints.resource);
  const requested = splitScopes(params.get("scope"));
  const scopes = knownScopes(requested);
  if (scopes.length === 0)
    throw new OAuthError(
      "invalid_scope",
      `none of the scopes asked for (${requested.join(" ")}) exists here; ask for mcp:read and/or mcp:write`,
    );
  return { ...known, challenge, resource, scopes };
}

/** The resource indicator (RFC 8707) must be this server's /mcp; without one, that is what the token is for. */
export function checkResource(given: string | undefined, resource: string): string {
  if (given === undefined) return resource;
  if (given === resource || given === `${resource}/`) return resource;
  throw new OAuthError("invalid_target", `resource must be ${resource}, this server's MCP endpoint; got ${given.slice(0, 300)}`);
}

function chooseRedirectUri(client: OAuthClient, given: string | undefined): string {
  if (given === undefined) {
    const only = client.redirectUris.length === 1 ? client.redirectUris[0] : undefined;
    if (only !== undefined) return only;
    throw new OAuthError("invalid_request", "redirect_uri is required (the client has several)");
  }
  if (!redirectUriMatches(given, client.redirectUris))
    throw new OAuthError("invalid_request", `redirect_uri ${given.slice(0, 300)} is not one the client registered`);
  return given;
}

function redirectBack(
  ctx: ServerContext,
  to: { redirectUri: string; state: string | undefined },
  fields: Record<string, string>,
): Response {
  const url = new URL(to.redirectUri);
  for (const [name, value] of Object.entries(fields)) url.searchParams.set(name, value);
  if (to.state !== undefined) url.searchParams.set("state", to.state);
  url.searchParams.set("iss", ctx.endpoints.issuer);
  return new Response(null, {
    status: 303,
    headers: { location: url.href, "cache-control": "no-store", "referrer-policy": "no-referrer" },
  });
}

function wrongToken(ctx: ServerContext, approval: PendingApproval): Response {
  approval.failures += 1;
  ctx.log("approval refused: wrong bridge token", { client: approval.client.clientId, failures: approval.failures });
  if (approval.failures >= MAX_FAILURES) {
    ctx.requests.dropPending(approval.id);
    return new Response("Too many wrong tokens: this approval is cancelled. Start the authorization again from the client.\n", {
      status: 403,
      headers: pageHeaders(approval.redirectUri),
    });
  }
  return approvalPage(approval, {
    action: ctx.endpoints.authorization,
    issuer: ctx.endpoints.issuer,
    problem: "That is not the bridge token. Run claude-ide-bridge print-token on the bridge's machine.",
    status: 401,
  });
}

/** The form's own origin only: browsers send Origin (and Sec-Fetch-Site) on a form POST. */
function checkSameOrigin(ctx: ServerContext, request: Request): void {
  const origin = request.headers.get("origin");
  const site = request.headers.get("sec-fetch-site");
  const own = new URL(ctx.endpoints.issuer).origin;
  if ((origin !== null && origin !== own) || (site !== null && site !== "same-origin"))
    throw new OAuthError("access_denied", `the approval must be posted from ${own}'s own page`, { status: 403 });
}

function cookieValue(header: string | null, name: string): string | undefined {
  for (const part of (header ?? "").split(";")) {
    const [key, ...rest] = part.trim().split("=");
    if (key === name) return rest.join("=");
  }
  return undefined;
}
