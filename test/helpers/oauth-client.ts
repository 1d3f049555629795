// A test's OAuth client, written out by hand so each step can be bent: PKCE, registration, the
// approval form as a browser would fill it (with its cookie), the token endpoint. It talks through
// any fetch: the in-process app (app.request) or a real server.
import { createHash, randomBytes } from "node:crypto";

export type Fetch = (url: string, init?: RequestInit) => Promise<Response>;

export function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

export interface Registered {
  clientId: string;
  redirectUri: string;
}

export async function register(fetch: Fetch, endpoint: string, body: Record<string, unknown> = {}): Promise<Registered> {
  const redirectUri = "http://localhost:33418/callback";
  const response = await fetch(endpoint, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ client_name: "Test client", redirect_uris: [redirectUri], ...body }),
  });
  const json = (await response.json()) as { client_id?: string };
  if (response.status !== 201 || json.client_id === undefined)
    throw new Error(`registration failed: ${response.status} ${JSON.stringify(json)}`);
  return { clientId: json.client_id, redirectUri };
}

export interface ApprovalForm {
  action: string;
  request: string;
  csrf: string;
  cookie: string;
  scopes: string[];
  html: string;
}

/** GETs the authorization URL and reads the approval form the owner would see. */
export async function openApproval(fetch: Fetch, url: string): Promise<ApprovalForm | Response> {
  const response = await fetch(url, { redirect: "manual" });
  if (response.status !== 200) return response;
  const html = await response.text();
  const field = (name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1] ?? "";
  const cookie = (response.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
  const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1]?.replace(/&#38;/g, "&") ?? "";
  const scopes = [...html.matchAll(/name="scope" value="([^"]+)"/g)].map((m) => m[1] ?? "");
  return { action, request: field("request"), csrf: field("csrf"), cookie, scopes, html };
}

/** Posts the owner's answer; returns the response (a 303 to the client on success). */
export function answer(
  fetch: Fetch,
  form: ApprovalForm,
  opts: { ownerToken: string; decision?: "approve" | "deny"; scopes?: string[]; headers?: Record<string, string> },
): Promise<Response> {
  const body = new URLSearchParams({
    request: form.request,
    csrf: form.csrf,
    owner_token: opts.ownerToken,
    decision: opts.decision ?? "approve",
  });
  for (const scope of opts.scopes ?? form.scopes) body.append("scope", scope);
  return fetch(form.action, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: form.cookie, ...opts.headers },
    body: body.toString(),
  });
}

export interface AuthorizeRequest {
  authorizationEndpoint: string;
  clientId: string;
  redirectUri: string;
  challenge: string;
  resource?: string;
  scope?: string;
  state?: string;
  extra?: Record<string, string>;
}

export function authorizationUrl(req: AuthorizeRequest): string {
  const url = new URL(req.authorizationEndpoint);
  url.searchParams.set("response_type", "code");
  url.searchParams.set("client_id", req.clientId);
  url.searchParams.set("redirect_uri", req.redirectUri);
  url.searchParams.set("code_challenge", req.challenge);
  url.searchParams.set("code_challenge_method", "S256");
  url.searchParams.set("state", req.state ?? "st-123");
  if (req.resource !== undefined) url.searchParams.set("resource", req.resource);
  if (req.scope !== undefined) url.searchParams.set("scope", req.scope);
  for (const [k, v] of Object.entries(req.extra ?? {})) url.searchParams.set(k, v);
  return url.href;
}

/** Authorization through the approval form, as the owner: the code, state and iss of the redirect. */
export async function authorize(fetch: Fetch, req: AuthorizeRequest & { ownerToken: string; scopes?: string[] }): Promise<URL> {
  const form = await openApproval(fetch, authorizationUrl(req));
  if (form instanceof Response) throw new Error(`no approval page: ${form.status} ${await form.text()}`);
  const response = await answer(fetch, form, { ownerToken: req.ownerToken, ...(req.scopes && { scopes: req.scopes }) });
  const location = response.headers.get("location");
  if (response.status !== 303 || location === null) throw new Error(`approval failed: ${response.status} ${await response.text()}`);
  return new URL(location);
}

export async function tokenRequest(
  fetch: Fetch,
  endpoint: string,
  form: Record<string, string>,
): Promise<{ status: number; json: Record<string, unknown> }> {
  const response = await fetch(endpoint, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(form).toString(),
  });
  const text = await response.text();
  return { status: response.status, json: text === "" ? {} : (JSON.parse(text) as Record<string, unknown>) };
}
