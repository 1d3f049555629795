// The bridge as OAuth 2.1 authorization server and protected resource, in-process: discovery from
// the 401, registration, the approval form, the code exchange, MCP calls with the token, refresh
// with rotation, revocation, the read scope, key rotation and a restart on the same state.
import { stat } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { issuerDirName } from "../../../../src/security/auth/oauth/state-files.ts";
import { makeOAuthApp, mcpCall, OWNER_TOKEN, ISSUER, type OAuthApp } from "../../../helpers/oauth-app.ts";
import {
  answer,
  authorizationUrl,
  authorize,
  openApproval,
  pkce,
  register,
  tokenRequest,
  type Fetch,
} from "../../../helpers/oauth-client.ts";

const MCP = `${ISSUER}/mcp`;
let app: OAuthApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

/** Registration, approval and code exchange: the token response. */
async function tokensFor(fetch: Fetch, opts: { scopes?: string[]; scope?: string } = {}) {
  const client = await register(fetch, `${ISSUER}/oauth/register`);
  const { verifier, challenge } = pkce();
  const redirect = await authorize(fetch, {
    authorizationEndpoint: `${ISSUER}/oauth/authorize`,
    ...client,
    challenge,
    resource: MCP,
    ownerToken: OWNER_TOKEN,
    ...(opts.scope && { scope: opts.scope }),
    ...(opts.scopes && { scopes: opts.scopes }),
  });
  const code = redirect.searchParams.get("code") ?? "";
  const answer = await tokenRequest(fetch, `${ISSUER}/oauth/token`, {
    grant_type: "authorization_code",
    code,
    client_id: client.clientId,
    redirect_uri: client.redirectUri,
    code_verifier: verifier,
    resource: MCP,
  });
  expect(answer.status, JSON.stringify(answer.json)).toBe(200);
  return { ...answer.json, client, redirect } as {
    access_token: string;
    refresh_token: string;
    scope: string;
    expires_in: number;
    client: typeof client;
    redirect: URL;
  };
}

describe("discovery", () => {
  it("answers /mcp without a token with 401 and a challenge naming the resource metadata and scopes", async () => {
    app = await makeOAuthApp();
    const response = await app.fetch(MCP, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: "{}",
    });
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toBe(
      `Bearer resource_metadata="${ISSUER}/.well-known/oauth-protected-resource/mcp", scope="mcp:read mcp:write"`,
    );
  });

  it("serves protected resource metadata at the path-inserted and the root well-known URLs", async () => {
    app = await makeOAuthApp();
    for (const path of ["/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource"]) {
      const response = await app.fetch(`${ISSUER}${path}`);
      expect(response.status, path).toBe(200);
      expect(await response.json()).toEqual({
        resource: MCP,
        authorization_servers: [ISSUER],
        scopes_supported: ["mcp:read", "mcp:write"],
        bearer_methods_supported: ["header"],
        resource_name: "claude-ide-bridge",
      });
    }
  });

  it("serves authorization server metadata at the OAuth and the OpenID discovery paths", async () => {
    app = await makeOAuthApp();
    const oauth = (await (await app.fetch(`${ISSUER}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
    expect(oauth).toMatchObject({
      issuer: ISSUER,
      authorization_endpoint: `${ISSUER}/oauth/authorize`,
      token_endpoint: `${ISSUER}/oauth/token`,
      registration_endpoint: `${ISSUER}/oauth/register`,
      revocation_endpoint: `${ISSUER}/oauth/revoke`,
      response_types_supported: ["code"],
      grant_types_supported: ["authorization_code", "refresh_token"],
      code_challenge_methods_supported: ["S256"],
      token_endpoint_auth_methods_supported: ["none"],
      scopes_supported: ["mcp:read", "mcp:write"],
      client_id_metadata_document_supported: true,
      authorization_response_iss_parameter_supported: true,
    });
    const openid = (await (await app.fetch(`${ISSUER}/.well-known/openid-configuration`)).json()) as Record<string, unknown>;
    expect(openid).toMatchObject({ ...oauth, subject_types_supported: ["public"] });
    const jwks = (await (await app.fetch(`${ISSUER}/oauth/jwks`)).json()) as { keys: Record<string, unknown>[] };
    expect(jwks.keys).toHaveLength(1);
    expect(jwks.keys[0]).toMatchObject({ kty: "EC", crv: "P-256", alg: "ES256", use: "sig" });
    expect(jwks.keys[0]).not.toHaveProperty("d");
  });

  it("with an issuer path prefix, answers the path-inserted forms and the prefixed routes, with or without the prefix", async () => {
    const issuer = "https://proxy.example.com/ide";
    app = await makeOAuthApp({ issuer });
    const prm = await app.fetch("https://proxy.example.com/.well-known/oauth-protected-resource/ide/mcp");
    expect(((await prm.json()) as { resource: string }).resource).toBe(`${issuer}/mcp`);
    for (const path of [
      "/.well-known/oauth-authorization-server/ide",
      "/.well-known/openid-configuration/ide",
      "/ide/.well-known/openid-configuration",
    ]) {
      const response = await app.fetch(`https://proxy.example.com${path}`);
      expect(response.status, path).toBe(200);
      expect(((await response.json()) as { issuer: string }).issuer).toBe(issuer);
    }
    // A proxy that keeps the prefix and one that takes it off reach the same /mcp.
    for (const url of [`${issuer}/mcp`, "https://proxy.example.com/mcp"]) {
      const response = await app.fetch(url, { method: "POST" });
      expect(response.status, url).toBe(401);
      expect(response.headers.get("www-authenticate")).toContain(
        `resource_metadata="https://proxy.example.com/.well-known/oauth-protected-resource/ide/mcp"`,
      );
    }
  });
});

describe("the authorization code flow", () => {
  it("registers, shows the owner an approval page, and issues tokens that call tools; refresh rotates; revoke ends it", async () => {
    app = await makeOAuthApp();
    const { fetch } = app;
    const tokens = await tokensFor(fetch);
    expect(tokens.redirect.searchParams.get("state")).toBe("st-123");
    expect(tokens.redirect.searchParams.get("iss")).toBe(ISSUER);
    expect(tokens.scope).toBe("mcp:read mcp:write");
    expect(tokens.expires_in).toBe(3600);
    const [header, payload] = tokens.access_token
      .split(".")
      .slice(0, 2)
      .map((part) => JSON.parse(Buffer.from(part, "base64url").toString()) as Record<string, unknown>);
    expect(header).toMatchObject({ alg: "ES256", typ: "at+jwt" });
    expect(payload).toMatchObject({ iss: ISSUER, aud: MCP, sub: "owner", client_id: tokens.client.clientId, scope: "mcp:read mcp:write" });
    expect(Number(payload?.exp) - Number(payload?.iat)).toBe(3600);

    const list = await mcpCall(fetch, { url: MCP, token: tokens.access_token, method: "tools/list" });
    expect(list.status).toBe(200);
    const names = ((list.body.result as { tools: { name: string }[] }).tools ?? []).map((t) => t.name);
    expect(names).toContain("touch");
    const call = await mcpCall(fetch, {
      url: MCP,
      token: tokens.access_token,
      method: "tools/call",
      params: { name: "touch", arguments: {} },
    });
    expect(call.body.result).toMatchObject({ content: [{ type: "text", text: "touched" }] });

    const refreshed = await tokenRequest(fetch, `${ISSUER}/oauth/token`, {
      grant_type: "refresh_token",
      refresh_token: tokens.refresh_token,
      client_id: tokens.client.clientId,
      resource: MCP,
    });
    expect(refreshed.status).toBe(200);
    expect(refreshed.json.refresh_token).not.toBe(tokens.refresh_token);
    const newAccess = String(refreshed.json.access_token);
    expect((await mcpCall(fetch, { url: MCP, token: newAccess, method: "tools/list" })).status).toBe(200);

    const revoked = await fetch(`${ISSUER}/oauth/revoke`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token: String(refreshed.json.refresh_token), client_id: tokens.client.clientId }).toString(),
    });
    expect(revoked.status).toBe(200);
    // The whole grant: its access tokens, old and new, stop at once.
    for (const token of [tokens.access_token, newAccess]) {
      const after = await mcpCall(fetch, { url: MCP, token, method: "tools/list" });
      expect(after.status).toBe(401);
      expect(after.wwwAuthenticate).toContain('error="invalid_token"');
    }
  });

  it("keeps the bridge token working on /mcp beside OAuth", async () => {
    app = await makeOAuthApp();
    const list = await mcpCall(app.fetch, { url: MCP, token: OWNER_TOKEN, method: "tools/list" });
    expect(list.status).toBe(200);
  });

  it("sends the denial back to the client with state and iss", async () => {
    app = await makeOAuthApp();
    const client = await register(app.fetch, `${ISSUER}/oauth/register`);
    const form = await openApproval(
      app.fetch,
      authorizationUrl({ authorizationEndpoint: `${ISSUER}/oauth/authorize`, ...client, challenge: pkce().challenge }),
    );
    if (form instanceof Response) throw new Error(String(form.status));
    const denied = await answer(app.fetch, form, { ownerToken: "", decision: "deny" });
    expect(denied.status).toBe(303);
    const location = new URL(denied.headers.get("location") ?? "");
    expect(Object.fromEntries(location.searchParams)).toMatchObject({ error: "access_denied", state: "st-123", iss: ISSUER });
  });

  it("shows the client's name, redirect URI and scopes on a page that cannot be framed", async () => {
    app = await makeOAuthApp();
    const client = await register(app.fetch, `${ISSUER}/oauth/register`, { client_name: "<b>Evil & Co</b>" });
    const response = await app.fetch(
      authorizationUrl({ authorizationEndpoint: `${ISSUER}/oauth/authorize`, ...client, challenge: pkce().challenge }),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("x-frame-options")).toBe("DENY");
    expect(response.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("set-cookie")).toMatch(/^__Host-bridge-approval-[\w-]+=[\w-]+; Path=\/; Secure; HttpOnly; SameSite=Strict/);
    const html = await response.text();
    expect(html).toContain("&#60;b&#62;Evil &#38; Co&#60;/b&#62;");
    expect(html).not.toContain("<b>Evil");
    expect(html).toContain(client.redirectUri);
    expect(html).toContain('name="scope" value="mcp:read"');
    expect(html).toContain('name="scope" value="mcp:write"');
    expect(html).toContain('type="password" name="owner_token"');
  });
});

describe("the read scope", () => {
  it("lists and calls only read-only tools; a write tool gets 403 insufficient_scope", async () => {
    app = await makeOAuthApp();
    const tokens = await tokensFor(app.fetch, { scopes: ["mcp:read"] });
    expect(tokens.scope).toBe("mcp:read");
    const list = await mcpCall(app.fetch, { url: MCP, token: tokens.access_token, method: "tools/list" });
    const names = (list.body.result as { tools: { name: string }[] }).tools.map((t) => t.name);
    expect(names).toContain("echo");
    expect(names).not.toContain("touch");
    const read = await mcpCall(app.fetch, {
      url: MCP,
      token: tokens.access_token,
      method: "tools/call",
      params: { name: "echo", arguments: { text: "hi" } },
    });
    expect(read.body.result).toMatchObject({ content: [{ type: "text", text: "hi" }] });
    const write = await mcpCall(app.fetch, {
      url: MCP,
      token: tokens.access_token,
      method: "tools/call",
      params: { name: "touch", arguments: {} },
    });
    expect(write.status).toBe(403);
    expect(write.wwwAuthenticate).toMatch(/^Bearer error="insufficient_scope", scope="mcp:read mcp:write", resource_metadata="[^"]+"/);
  });
});

describe("keys and state", () => {
  it("rotates the signing key with the old one still verifying, and keeps state 0600 in a 0700 directory across a restart", async () => {
    app = await makeOAuthApp();
    const tokens = await tokensFor(app.fetch);
    const oldKid = JSON.parse(Buffer.from(tokens.access_token.split(".")[0] ?? "", "base64url").toString()).kid as string;
    await app.access.server?.keys.rotate();
    const jwks = (await (await app.fetch(`${ISSUER}/oauth/jwks`)).json()) as { keys: { kid: string }[] };
    expect(jwks.keys.map((k) => k.kid)).toContain(oldKid);
    expect(jwks.keys).toHaveLength(2);
    expect((await mcpCall(app.fetch, { url: MCP, token: tokens.access_token, method: "tools/list" })).status).toBe(200);

    const dir = join(app.stateRoot, issuerDirName(ISSUER));
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
    for (const file of ["keys.json", "clients.json", "grants.json", "issuer.json"])
      expect((await stat(join(dir, file))).mode & 0o777, file).toBe(0o600);

    // A restart on the same state: the refresh token and the old access token still work.
    const stateRoot = app.stateRoot;
    const second = await makeOAuthApp({ stateRoot });
    try {
      expect((await mcpCall(second.fetch, { url: MCP, token: tokens.access_token, method: "tools/list" })).status).toBe(200);
      const refreshed = await tokenRequest(second.fetch, `${ISSUER}/oauth/token`, {
        grant_type: "refresh_token",
        refresh_token: tokens.refresh_token,
        client_id: tokens.client.clientId,
      });
      expect(refreshed.status).toBe(200);
      const kid = JSON.parse(Buffer.from(String(refreshed.json.access_token).split(".")[0] ?? "", "base64url").toString()).kid;
      expect(kid).not.toBe(oldKid);
    } finally {
      await second.close();
    }
  });
});

describe("CORS", () => {
  it("answers a preflight from a --cors-origin origin, and gives another origin nothing", async () => {
    app = await makeOAuthApp({ corsOrigins: ["https://app.example.org"] });
    const preflight = (origin: string) =>
      app?.fetch(MCP, {
        method: "OPTIONS",
        headers: { origin, "access-control-request-method": "POST", "access-control-request-headers": "authorization" },
      });
    const allowed = await preflight("https://app.example.org");
    expect(allowed?.status).toBe(204);
    expect(allowed?.headers.get("access-control-allow-origin")).toBe("https://app.example.org");
    const other = await preflight("https://evil.example.net");
    expect(other?.status).toBe(403);
    expect(other?.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("sends no CORS headers at all without --cors-origin", async () => {
    app = await makeOAuthApp();
    const response = await app.fetch(`${ISSUER}/.well-known/oauth-protected-resource`, { headers: { origin: ISSUER } });
    expect(response.status).toBe(200);
    expect(response.headers.get("access-control-allow-origin")).toBeNull();
  });
});
