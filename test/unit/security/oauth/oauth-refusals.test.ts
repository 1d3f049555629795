// The refusals: each bad request against the authorization server and the protected resource is
// refused with the status and OAuth error the RFCs give, and leaves the server serving.
import { exportJWK, generateKeyPair, SignJWT, type JWTPayload } from "jose";
import { afterEach, describe, expect, it } from "vitest";
import { makeOAuthApp, mcpCall, OWNER_TOKEN, ISSUER, type OAuthApp, type OAuthAppOptions } from "../../../helpers/oauth-app.ts";
import {
  answer,
  authorizationUrl,
  authorize,
  openApproval,
  pkce,
  register,
  tokenRequest,
  type ApprovalForm,
  type AuthorizeRequest,
  type Registered,
} from "../../../helpers/oauth-client.ts";

const MCP = `${ISSUER}/mcp`;
const AUTHORIZE = `${ISSUER}/oauth/authorize`;
const TOKEN = `${ISSUER}/oauth/token`;
const REGISTER = `${ISSUER}/oauth/register`;

/** One test's world: the app, a registered client, and helpers that take the flow as far as asked. */
class Scenario {
  client!: Registered;
  readonly pkce = pkce();
  constructor(readonly app: OAuthApp) {}

  static async start(opts: OAuthAppOptions = {}): Promise<Scenario> {
    const scenario = new Scenario(await makeOAuthApp(opts));
    scenario.client = await register(scenario.app.fetch, REGISTER);
    return scenario;
  }

  request(overrides: Partial<AuthorizeRequest> = {}): AuthorizeRequest {
    return { authorizationEndpoint: AUTHORIZE, ...this.client, challenge: this.pkce.challenge, resource: MCP, ...overrides };
  }

  authorizeGet(overrides: Partial<AuthorizeRequest> = {}): Promise<Response> {
    return this.app.fetch(authorizationUrl(this.request(overrides)), { redirect: "manual" });
  }

  async form(): Promise<ApprovalForm> {
    const form = await openApproval(this.app.fetch, authorizationUrl(this.request()));
    if (form instanceof Response) throw new Error(`no approval page: ${form.status}`);
    return form;
  }

  async code(overrides: Partial<AuthorizeRequest> = {}): Promise<string> {
    const redirect = await authorize(this.app.fetch, { ...this.request(overrides), ownerToken: OWNER_TOKEN });
    return redirect.searchParams.get("code") ?? "";
  }

  exchange(code: string, overrides: Record<string, string> = {}): Promise<Response> {
    return this.post(TOKEN, {
      grant_type: "authorization_code",
      code,
      client_id: this.client.clientId,
      redirect_uri: this.client.redirectUri,
      code_verifier: this.pkce.verifier,
      ...overrides,
    });
  }

  async tokens(): Promise<{ access_token: string; refresh_token: string }> {
    const answer = await tokenRequest(this.app.fetch, TOKEN, {
      grant_type: "authorization_code",
      code: await this.code(),
      client_id: this.client.clientId,
      redirect_uri: this.client.redirectUri,
      code_verifier: this.pkce.verifier,
    });
    return answer.json as { access_token: string; refresh_token: string };
  }

  refresh(refreshToken: string, overrides: Record<string, string> = {}): Promise<Response> {
    return this.post(TOKEN, { grant_type: "refresh_token", refresh_token: refreshToken, client_id: this.client.clientId, ...overrides });
  }

  post(url: string, form: Record<string, string>, headers: Record<string, string> = {}): Promise<Response> {
    return this.app.fetch(url, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
      body: new URLSearchParams(form).toString(),
    });
  }

  mcp(token: string): Promise<Response> {
    return this.app.fetch(MCP, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
      }),
    });
  }

  /** A JWT signed with the server's own current key, claims as given. */
  async signed(claims: JWTPayload, header: Record<string, unknown> = {}): Promise<string> {
    const server = this.app.access.server;
    if (server === undefined) throw new Error("no authorization server");
    const { kid, key } = await server.keys.current();
    const now = Math.floor(this.app.clock.now / 1000);
    return new SignJWT({ scope: "mcp:read mcp:write", client_id: this.client.clientId, sid: "none", ...claims })
      .setProtectedHeader({ alg: "ES256", kid, typ: "at+jwt", ...header })
      .setIssuer(typeof claims.iss === "string" ? claims.iss : ISSUER)
      .setAudience(claims.aud ?? MCP)
      .setSubject("owner")
      .setIssuedAt(claims.iat ?? now)
      .setExpirationTime(claims.exp ?? now + 600)
      .setJti("j")
      .sign(key);
  }

  /** A real token of a real grant, with a claim changed and signed again: it passes everything but what was changed. */
  async validClaims(): Promise<JWTPayload> {
    const { access_token } = await this.tokens();
    return JSON.parse(Buffer.from(access_token.split(".")[1] ?? "", "base64url").toString()) as JWTPayload;
  }
}

/** The status and the OAuth error of a refusal, wherever it is carried. */
async function outcome(response: Response): Promise<{ status: number; error: string | undefined }> {
  const status = response.status;
  const location = response.headers.get("location");
  if (location !== null) return { status, error: new URL(location).searchParams.get("error") ?? "(redirect without error)" };
  const challenge = response.headers.get("www-authenticate");
  const fromChallenge = challenge && /error="([^"]+)"/.exec(challenge)?.[1];
  if (fromChallenge) return { status, error: fromChallenge };
  const text = await response.text();
  try {
    const json = JSON.parse(text) as { error?: unknown };
    return { status, error: typeof json.error === "string" ? json.error : undefined };
  } catch {
    return { status, error: undefined };
  }
}

type Case = [name: string, run: (s: Scenario) => Promise<Response>, status: number, error: string | undefined];

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");

const CASES: Case[] = [
  // The authorization request: problems with the client or its redirect URI are shown, never redirected.
  ["unknown client", (s) => s.authorizeGet({ clientId: "bridge-nobody" }), 400, "invalid_client"],
  [
    "redirect URI the client did not register",
    (s) => s.authorizeGet({ redirectUri: "http://localhost:1/elsewhere" }),
    400,
    "invalid_request",
  ],
  [
    "https redirect URI of another host",
    (s) => s.authorizeGet({ redirectUri: "https://evil.example.net/callback" }),
    400,
    "invalid_request",
  ],
  ["a parameter given twice", (s) => s.app.fetch(`${authorizationUrl(s.request())}&state=again`), 400, "invalid_request"],
  ["metadata document on a private address", (s) => s.authorizeGet({ clientId: "https://127.0.0.1/client.json" }), 400, "invalid_client"],
  ["metadata document URL without a path", (s) => s.authorizeGet({ clientId: "https://client.example.com" }), 400, "invalid_client"],
  [
    "metadata document URL with a fragment",
    (s) => s.authorizeGet({ clientId: "https://client.example.com/c.json#x" }),
    400,
    "invalid_client",
  ],
  // From here the redirect URI is trusted: errors go back to it.
  [
    "no PKCE challenge",
    (s) => {
      const url = new URL(authorizationUrl(s.request()));
      url.searchParams.delete("code_challenge");
      return s.app.fetch(url.href, { redirect: "manual" });
    },
    303,
    "invalid_request",
  ],
  ["plain PKCE method", (s) => s.authorizeGet({ extra: { code_challenge_method: "plain" } }), 303, "invalid_request"],
  ["response_type token (implicit)", (s) => s.authorizeGet({ extra: { response_type: "token" } }), 303, "unsupported_response_type"],
  ["resource of another server", (s) => s.authorizeGet({ resource: "https://other.example.com/mcp" }), 303, "invalid_target"],
  ["only unknown scopes", (s) => s.authorizeGet({ scope: "admin openid" }), 303, "invalid_scope"],
  // The approval form.
  ["wrong owner token", async (s) => answer(s.app.fetch, await s.form(), { ownerToken: "not-the-token-000000" }), 401, undefined],
  [
    "approval without the page's cookie (CSRF)",
    async (s) => answer(s.app.fetch, { ...(await s.form()), cookie: "" }, { ownerToken: OWNER_TOKEN }),
    403,
    "access_denied",
  ],
  [
    "approval with another CSRF value",
    async (s) => answer(s.app.fetch, { ...(await s.form()), csrf: "x".repeat(43) }, { ownerToken: OWNER_TOKEN }),
    403,
    "access_denied",
  ],
  [
    "approval posted cross-site",
    async (s) => answer(s.app.fetch, await s.form(), { ownerToken: OWNER_TOKEN, headers: { "sec-fetch-site": "cross-site" } }),
    403,
    "access_denied",
  ],
  [
    "approval from a foreign origin",
    async (s) => answer(s.app.fetch, await s.form(), { ownerToken: OWNER_TOKEN, headers: { origin: "https://evil.example.net" } }),
    403,
    undefined,
  ],
  [
    "approval of an unknown request",
    async (s) => answer(s.app.fetch, { ...(await s.form()), request: "nope" }, { ownerToken: OWNER_TOKEN }),
    400,
    "invalid_request",
  ],
  // The code exchange.
  ["wrong code_verifier", async (s) => s.exchange(await s.code(), { code_verifier: pkce().verifier }), 400, "invalid_grant"],
  ["code_verifier missing", async (s) => s.exchange(await s.code(), { code_verifier: "" }), 400, "invalid_grant"],
  [
    "reused code",
    async (s) => {
      const code = await s.code();
      expect((await s.exchange(code)).status).toBe(200);
      return s.exchange(code);
    },
    400,
    "invalid_grant",
  ],
  [
    "expired code",
    async (s) => {
      const code = await s.code();
      s.app.clock.advance(5 * 60_000 + 1);
      return s.exchange(code);
    },
    400,
    "invalid_grant",
  ],
  [
    "wrong redirect_uri at the token endpoint",
    async (s) => s.exchange(await s.code(), { redirect_uri: "http://localhost:33418/other" }),
    400,
    "invalid_grant",
  ],
  [
    "code of another client",
    async (s) => {
      const code = await s.code();
      const other = await register(s.app.fetch, REGISTER);
      return s.exchange(code, { client_id: other.clientId });
    },
    400,
    "invalid_grant",
  ],
  [
    "wrong resource at the token endpoint",
    async (s) => s.exchange(await s.code(), { resource: "https://other.example.com/mcp" }),
    400,
    "invalid_target",
  ],
  ["unknown client at the token endpoint", async (s) => s.exchange(await s.code(), { client_id: "bridge-nobody" }), 401, "invalid_client"],
  ["a client secret", async (s) => s.exchange(await s.code(), { client_secret: "s3cret" }), 401, "invalid_client"],
  [
    "HTTP Basic client authentication",
    async (s) => s.post(TOKEN, { grant_type: "authorization_code", code: "x" }, { authorization: `Basic ${btoa("a:b")}` }),
    401,
    "invalid_client",
  ],
  [
    "password grant",
    (s) => s.post(TOKEN, { grant_type: "password", username: "u", password: "p", client_id: s.client.clientId }),
    400,
    "unsupported_grant_type",
  ],
  [
    "token request as JSON",
    (s) => s.app.fetch(TOKEN, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" }),
    400,
    "invalid_request",
  ],
  // Refresh tokens.
  [
    "old refresh token reused",
    async (s) => {
      const { refresh_token } = await s.tokens();
      expect((await s.refresh(refresh_token)).status).toBe(200);
      return s.refresh(refresh_token);
    },
    400,
    "invalid_grant",
  ],
  [
    "refresh asking for more scope",
    async (s) => {
      const code = await s.code({ scope: "mcp:read" });
      const tokens = (await (await s.exchange(code)).json()) as { refresh_token: string };
      return s.refresh(tokens.refresh_token, { scope: "mcp:read mcp:write" });
    },
    400,
    "invalid_scope",
  ],
  [
    "refresh token of another client",
    async (s) => {
      const { refresh_token } = await s.tokens();
      const other = await register(s.app.fetch, REGISTER);
      return s.refresh(refresh_token, { client_id: other.clientId });
    },
    400,
    "invalid_grant",
  ],
  ["made-up refresh token", (s) => s.refresh("abc.def"), 400, "invalid_grant"],
  // Registration.
  [
    "oversized registration",
    (s) =>
      s.app.fetch(REGISTER, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ redirect_uris: ["http://localhost/cb"], client_name: "x".repeat(9000) }),
      }),
    413,
    "invalid_request",
  ],
  [
    "plain-http redirect URI on a public host",
    (s) =>
      s.app.fetch(REGISTER, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ redirect_uris: ["http://evil.example.net/cb"] }),
      }),
    400,
    "invalid_redirect_uri",
  ],
  [
    "redirect URI with a fragment",
    (s) =>
      s.app.fetch(REGISTER, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ redirect_uris: ["https://app.example.com/cb#frag"] }),
      }),
    400,
    "invalid_redirect_uri",
  ],
  [
    "confidential client registration",
    (s) =>
      s.app.fetch(REGISTER, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ redirect_uris: ["http://localhost/cb"], token_endpoint_auth_method: "client_secret_basic" }),
      }),
    400,
    "invalid_client_metadata",
  ],
  [
    "registration without redirect URIs",
    (s) =>
      s.app.fetch(REGISTER, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ client_name: "x" }),
      }),
    400,
    "invalid_redirect_uri",
  ],
  // The protected resource.
  ["no token", (s) => s.app.fetch(MCP, { method: "POST" }), 401, undefined],
  [
    "token in the query string only",
    async (s) => s.app.fetch(`${MCP}?access_token=${(await s.tokens()).access_token}`, { method: "POST" }),
    401,
    undefined,
  ],
  [
    "token for another audience",
    async (s) => s.mcp(await s.signed({ ...(await s.validClaims()), aud: "https://other.example.com/mcp" })),
    401,
    "invalid_token",
  ],
  [
    "token of another issuer",
    async (s) => s.mcp(await s.signed({ ...(await s.validClaims()), iss: "https://evil.example.net" })),
    401,
    "invalid_token",
  ],
  [
    "expired token",
    async (s) =>
      s.mcp(
        await s.signed({
          ...(await s.validClaims()),
          iat: Math.floor(s.app.clock.now / 1000) - 7200,
          exp: Math.floor(s.app.clock.now / 1000) - 3600,
        }),
      ),
    401,
    "invalid_token",
  ],
  [
    "token not valid yet",
    async (s) => s.mcp(await s.signed({ ...(await s.validClaims()), nbf: Math.floor(s.app.clock.now / 1000) + 3600 })),
    401,
    "invalid_token",
  ],
  [
    "tampered payload",
    async (s) => {
      const [h, , sig] = (await s.tokens()).access_token.split(".");
      const claims = { ...(await s.validClaims()), scope: "mcp:write" };
      return s.mcp(`${h}.${b64(claims)}.${sig}`);
    },
    401,
    "invalid_token",
  ],
  [
    "tampered signature",
    async (s) => {
      const token = (await s.tokens()).access_token;
      const last = token.at(-2) === "A" ? "B" : "A";
      return s.mcp(`${token.slice(0, -2)}${last}${token.at(-1)}`);
    },
    401,
    "invalid_token",
  ],
  ["alg none", async (s) => s.mcp(`${b64({ alg: "none", typ: "at+jwt" })}.${b64(await s.validClaims())}.`), 401, "invalid_token"],
  [
    "HS256 keyed with the server's public key",
    async (s) => {
      const claims = await s.validClaims();
      const jwks = (await (await s.app.fetch(`${ISSUER}/oauth/jwks`)).json()) as { keys: { kid: string }[] };
      const publicJwk = jwks.keys[0];
      return s.mcp(
        await new SignJWT(claims)
          .setProtectedHeader({ alg: "HS256", kid: publicJwk?.kid, typ: "at+jwt" })
          .sign(new TextEncoder().encode(JSON.stringify(publicJwk))),
      );
    },
    401,
    "invalid_token",
  ],
  [
    "signed by a key the server never had",
    async (s) => {
      const { privateKey } = await generateKeyPair("ES256");
      const claims = await s.validClaims();
      return s.mcp(await new SignJWT(claims).setProtectedHeader({ alg: "ES256", kid: "stranger", typ: "at+jwt" }).sign(privateKey));
    },
    401,
    "invalid_token",
  ],
  ["an ID-token-like JWT (typ JWT)", async (s) => s.mcp(await s.signed(await s.validClaims(), { typ: "JWT" })), 401, "invalid_token"],
  [
    "token of a revoked grant",
    async (s) => {
      const { access_token, refresh_token } = await s.tokens();
      await s.post(`${ISSUER}/oauth/revoke`, { token: refresh_token, client_id: s.client.clientId });
      return s.mcp(access_token);
    },
    401,
    "invalid_token",
  ],
  [
    "read-only token calling a write tool",
    async (s) => {
      const code = await s.code({ scope: "mcp:read" });
      const { access_token } = (await (await s.exchange(code)).json()) as { access_token: string };
      const call = await mcpCall(s.app.fetch, {
        url: MCP,
        token: access_token,
        method: "tools/call",
        params: { name: "touch", arguments: {} },
      });
      return new Response(JSON.stringify(call.body), {
        status: call.status,
        headers: call.wwwAuthenticate === null ? {} : { "www-authenticate": call.wwwAuthenticate },
      });
    },
    403,
    "insufficient_scope",
  ],
  // Revocation and the owner's endpoints.
  [
    "revoking another client's token",
    async (s) => {
      const { refresh_token } = await s.tokens();
      const other = await register(s.app.fetch, REGISTER);
      return s.post(`${ISSUER}/oauth/revoke`, { token: refresh_token, client_id: other.clientId });
    },
    400,
    "invalid_request",
  ],
  [
    "grant list without the bridge token",
    async (s) => s.app.fetch(`${ISSUER}/oauth/grants`, { headers: { authorization: `Bearer ${(await s.tokens()).access_token}` } }),
    401,
    "invalid_client",
  ],
];

let scenario: Scenario | undefined;
afterEach(async () => {
  await scenario?.app.close();
  scenario = undefined;
});

describe("refusals", () => {
  it("has at least 30 cases", () => {
    expect(CASES.length).toBeGreaterThanOrEqual(30);
  });

  it.each(CASES)("%s", async (_name, run, status, error) => {
    scenario = await Scenario.start();
    const response = await run(scenario);
    const got = await outcome(response);
    expect(got).toEqual({ status, error });
    // Still serving: the metadata answers after the refusal.
    expect((await scenario.app.fetch(`${ISSUER}/.well-known/oauth-authorization-server`)).status).toBe(200);
  });

  it("a reused code also revokes the tokens issued with it", async () => {
    scenario = await Scenario.start();
    const code = await scenario.code();
    const first = (await (await scenario.exchange(code)).json()) as { access_token: string; refresh_token: string };
    expect((await scenario.mcp(first.access_token)).status).toBe(200);
    expect((await scenario.exchange(code)).status).toBe(400);
    expect((await scenario.mcp(first.access_token)).status).toBe(401);
    expect((await scenario.refresh(first.refresh_token)).status).toBe(400);
  });

  it("reusing a rotated-out refresh token revokes the whole family, the newest tokens included", async () => {
    scenario = await Scenario.start();
    const first = await scenario.tokens();
    const second = (await (await scenario.refresh(first.refresh_token)).json()) as { access_token: string; refresh_token: string };
    expect((await scenario.mcp(second.access_token)).status).toBe(200);
    expect((await scenario.refresh(first.refresh_token)).status).toBe(400);
    expect((await scenario.mcp(second.access_token)).status).toBe(401);
    expect((await scenario.refresh(second.refresh_token)).status).toBe(400);
  });

  it("drops an approval after five wrong owner tokens", async () => {
    scenario = await Scenario.start();
    const form = await scenario.form();
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await answer(scenario.app.fetch, form, { ownerToken: `wrong-${i}-000000000000` })).status);
    expect(statuses).toEqual([401, 401, 401, 401, 403]);
    expect((await outcome(await answer(scenario.app.fetch, form, { ownerToken: OWNER_TOKEN }))).status).toBe(400);
  });

  it("rate-limits the approval form and registration with 429 and Retry-After", async () => {
    scenario = await Scenario.start({ limits: { approve: { perMinute: 2, burst: 2 }, register: { perMinute: 1, burst: 2 } } });
    const form = await scenario.form();
    for (let i = 0; i < 2; i++) await answer(scenario.app.fetch, form, { ownerToken: "wrong-000000000000000" });
    const limited = await answer(scenario.app.fetch, form, { ownerToken: OWNER_TOKEN });
    expect(await outcome(limited)).toEqual({ status: 429, error: "temporarily_unavailable" });
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    // One registration went into start(); the bucket holds two.
    await register(scenario.app.fetch, REGISTER);
    const third = await scenario.app.fetch(REGISTER, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ redirect_uris: ["http://localhost/cb"] }),
    });
    expect(third.status).toBe(429);
  });

  it("refuses a token without either scope with 403 insufficient_scope", async () => {
    scenario = await Scenario.start();
    const claims = await scenario.validClaims();
    const response = await scenario.mcp(await scenario.signed({ ...claims, scope: "profile" }));
    expect(await outcome(response)).toEqual({ status: 403, error: "insufficient_scope" });
  });
});

describe("the keys of a JWT the server never made", () => {
  it("exports no private part in the JWKS", async () => {
    scenario = await Scenario.start();
    const jwks = (await (await scenario.app.fetch(`${ISSUER}/oauth/jwks`)).json()) as { keys: Record<string, unknown>[] };
    const { publicKey } = await generateKeyPair("ES256");
    expect(Object.keys(jwks.keys[0] ?? {}).sort()).toEqual(Object.keys({ ...(await exportJWK(publicKey)), kid: 1, alg: 1, use: 1 }).sort());
  });
});
