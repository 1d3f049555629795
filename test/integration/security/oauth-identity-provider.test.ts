// An existing identity provider instead of the bridge's own authorization server: the bridge (behind
// a TLS proxy, --issuer-url) verifies the provider's tokens against its JWKS, served here over
// loopback HTTP as a provider's would be, fetched again when a token names a new key.
import { createServer, type Server } from "node:http";
import { exportJWK, generateKeyPair, SignJWT, type JWK } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JWKS_COOLDOWN_MS } from "../../../src/security/auth/oauth/identity-provider.ts";
import { mcpCall } from "../../helpers/oauth-app.ts";
import { startRemoteBridge, type RemoteBridge } from "../../helpers/remote-bridge.ts";

const IDP = "https://sso.example.test";
const AUDIENCE = "api://claude-ide-bridge";
const ISSUER_URL = "https://ide.example.test/bridge";

interface IdpKey {
  kid: string;
  privateKey: CryptoKey;
  jwk: JWK;
}

let jwksServer: Server;
let jwksFetches = 0;
let lastFetchAt = 0;
const published: JWK[] = [];
let bridge: RemoteBridge;

async function newKey(kid: string): Promise<IdpKey> {
  const { publicKey, privateKey } = await generateKeyPair("RS256");
  return { kid, privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg: "RS256", use: "sig" } };
}

function token(key: IdpKey, claims: Record<string, unknown> = {}): Promise<string> {
  return new SignJWT({ scp: ["mcp:read", "mcp:write"], azp: "team-client", ...claims })
    .setProtectedHeader({ alg: "RS256", kid: key.kid })
    .setIssuer(IDP)
    .setAudience(typeof claims.aud === "string" ? claims.aud : AUDIENCE)
    .setSubject("alice@example.test")
    .setIssuedAt()
    .setExpirationTime("10m")
    .sign(key.privateKey);
}

let first: IdpKey;

beforeAll(async () => {
  first = await newKey("key-1");
  published.push(first.jwk);
  jwksServer = createServer((_req, res) => {
    jwksFetches += 1;
    lastFetchAt = Date.now();
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify({ keys: published }));
  });
  await new Promise<void>((resolve) => jwksServer.listen(0, "127.0.0.1", resolve));
  const address = jwksServer.address();
  const port = typeof address === "object" && address ? address.port : 0;
  bridge = await startRemoteBridge({
    args: [
      "--issuer-url",
      ISSUER_URL,
      "--oauth-jwks-url",
      `http://127.0.0.1:${port}/jwks`,
      "--oauth-issuer",
      IDP,
      "--oauth-audience",
      AUDIENCE,
    ],
  });
});

afterAll(async () => {
  await bridge?.stop();
  await new Promise<void>((resolve) => (jwksServer ? jwksServer.close(() => resolve()) : resolve()));
});

/** The bridge is behind a proxy: requests reach its loopback port, under the issuer's path. */
const mcpUrl = () => `${bridge.url}/bridge/mcp`;

describe("an existing identity provider", () => {
  it("names the provider as the authorization server and has no /oauth endpoints of its own", async () => {
    const prm = await fetch(`${bridge.url}/.well-known/oauth-protected-resource/bridge/mcp`);
    expect(await prm.json()).toMatchObject({ resource: `${ISSUER_URL}/mcp`, authorization_servers: [IDP] });
    expect((await fetch(`${bridge.url}/.well-known/oauth-authorization-server/bridge`)).status).toBe(404);
    expect((await fetch(`${bridge.url}/oauth/authorize`)).status).toBe(404);
  });

  it("accepts the provider's tokens with the scopes in scp, and refuses another audience or issuer", async () => {
    const list = await mcpCall(fetch, { url: mcpUrl(), token: await token(first), method: "tools/list" });
    expect(list.status).toBe(200);
    expect(JSON.stringify(list.body)).toContain('"gitCommit"');
    for (const claims of [{ aud: "api://someone-else" }, { iss: "https://evil.example.test" }]) {
      const signed = claims.iss
        ? await new SignJWT({ scp: ["mcp:write"] })
            .setProtectedHeader({ alg: "RS256", kid: first.kid })
            .setIssuer(claims.iss)
            .setAudience(AUDIENCE)
            .setExpirationTime("5m")
            .sign(first.privateKey)
        : await token(first, claims);
      const refused = await mcpCall(fetch, { url: mcpUrl(), token: signed, method: "tools/list" });
      expect(refused.status, JSON.stringify(claims)).toBe(401);
      expect(refused.wwwAuthenticate).toContain('error="invalid_token"');
    }
  });

  it("gives a token with only mcp:read the read-only tools", async () => {
    const readOnly = await token(first, { scp: "mcp:read" });
    const list = await mcpCall(fetch, { url: mcpUrl(), token: readOnly, method: "tools/list" });
    const names = (list.body.result as { tools: { name: string }[] }).tools.map((t) => t.name);
    expect(names).toContain("readFile");
    expect(names).not.toContain("gitCommit");
    const write = await mcpCall(fetch, {
      url: mcpUrl(),
      token: readOnly,
      method: "tools/call",
      params: { name: "gitCommit", arguments: { message: "x" } },
    });
    expect(write.status).toBe(403);
  });

  it("fetches the JWKS again when the provider rotates to a key it has not seen", async () => {
    const second = await newKey("key-2");
    published.push(second.jwk);
    // jose fetches again on an unknown kid only once the cooldown after its last fetch is over: a
    // lower bound to wait out, not a race. jose starts its cooldown once it has read the answer,
    // which on a busy machine (load 30) came over 100 ms after this server sent it.
    const wait = lastFetchAt + JWKS_COOLDOWN_MS + 1_000 - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const before = jwksFetches;
    const list = await mcpCall(fetch, { url: mcpUrl(), token: await token(second), method: "tools/list" });
    expect(list.status).toBe(200);
    expect(jwksFetches).toBe(before + 1);
    // Cached from now on: more requests with either key fetch nothing.
    for (const key of [first, second])
      expect((await mcpCall(fetch, { url: mcpUrl(), token: await token(key), method: "tools/list" })).status).toBe(200);
    expect(jwksFetches).toBe(before + 1);
  });
});
