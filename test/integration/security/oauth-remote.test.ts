// Remote access for real: the bridge (a child process) serving TLS with a certificate of a test CA,
// and oauth4webapi as the client doing what a remote MCP client does: discovery from the 401,
// protected resource and authorization server metadata, registration (or a Client ID Metadata
// Document served over https here), the approval form, the code exchange with PKCE and the
// resource indicator, MCP calls, refresh, revocation.
import { createServer, type Server } from "node:https";
import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as oauth from "oauth4webapi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fetchTrusting } from "../../helpers/fetch-trusting.ts";
import { mcpCall } from "../../helpers/oauth-app.ts";
import { answer, openApproval } from "../../helpers/oauth-client.ts";
import { startRemoteBridge, tlsArgs, type RemoteBridge } from "../../helpers/remote-bridge.ts";
import { makeTestCa, type TestCa } from "../../helpers/test-ca.ts";

let dir: string;
let ca: TestCa;
let bridge: RemoteBridge;
let fetch: ReturnType<typeof fetchTrusting>;
let metadataServer: Server;
let metadataFetches = 0;
let metadataUrl: string;
const REDIRECT = "http://localhost:33418/callback";

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "oauth-remote-"));
  ca = await makeTestCa(join(dir, "ca"));
  fetch = fetchTrusting(ca.ca);
  // A client's metadata document on https, at a loopback address: the bridge may fetch it only
  // because this bridge is told so (--oauth-allow-private-metadata) and trusts the CA.
  metadataServer = createServer({ cert: ca.cert, key: ca.key }, (req, res) => {
    if (req.url !== "/oauth/client.json") {
      res.statusCode = 404;
      res.end();
      return;
    }
    metadataFetches += 1;
    res.setHeader("content-type", "application/json");
    res.setHeader("cache-control", "max-age=600");
    res.end(
      JSON.stringify({
        client_id: metadataUrl,
        client_name: "Metadata document client",
        redirect_uris: [REDIRECT],
        token_endpoint_auth_method: "none",
      }),
    );
  });
  await new Promise<void>((resolve) => metadataServer.listen(0, "127.0.0.1", resolve));
  const address = metadataServer.address();
  metadataUrl = `https://localhost:${typeof address === "object" && address ? address.port : 0}/oauth/client.json`;
  bridge = await startRemoteBridge({ args: [...tlsArgs(ca), "--oauth-allow-private-metadata"], env: { NODE_EXTRA_CA_CERTS: ca.caFile } });
});

afterAll(async () => {
  await bridge?.stop();
  await new Promise<void>((resolve) => (metadataServer ? metadataServer.close(() => resolve()) : resolve()));
  await rm(dir, { recursive: true, force: true });
});

const opts = () => ({ [oauth.customFetch]: fetch });

/** Discovery the way a client starts: call /mcp, read the 401's challenge, follow it to both metadata documents. */
async function discover(): Promise<{ as: oauth.AuthorizationServer; resource: string }> {
  let challenge: oauth.WWWAuthenticateChallenge | undefined;
  try {
    await oauth.protectedResourceRequest(
      "not-a-token",
      "POST",
      new URL(bridge.remoteMcpUrl),
      new Headers({ "content-type": "application/json" }),
      "{}",
      opts(),
    );
  } catch (err) {
    if (!(err instanceof oauth.WWWAuthenticateChallengeError)) throw err;
    expect(err.status).toBe(401);
    challenge = err.cause[0];
  }
  expect(challenge?.scheme).toBe("bearer");
  expect(challenge?.parameters.error).toBe("invalid_token");
  expect(challenge?.parameters.scope).toBe("mcp:read mcp:write");
  const metadataUrlFromChallenge = challenge?.parameters.resource_metadata;
  expect(metadataUrlFromChallenge).toBe(`${bridge.issuer}/.well-known/oauth-protected-resource/mcp`);
  const rs = await oauth.processResourceDiscoveryResponse(
    new URL(bridge.remoteMcpUrl),
    await oauth.resourceDiscoveryRequest(new URL(bridge.remoteMcpUrl), opts()),
  );
  const issuer = new URL(rs.authorization_servers?.[0] ?? "");
  const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: "oauth2", ...opts() }));
  expect(as.code_challenge_methods_supported).toEqual(["S256"]);
  return { as, resource: rs.resource };
}

/** The approval page, filled in by the owner; the callback URL the browser would be sent to. */
async function approve(authorizationUrl: URL, scopes?: string[]): Promise<URL> {
  const form = await openApproval(fetch, authorizationUrl.href);
  if (form instanceof Response) throw new Error(`no approval page: ${form.status} ${await form.text()}`);
  const response = await answer(fetch, form, { ownerToken: bridge.token, ...(scopes && { scopes }) });
  expect(response.status).toBe(303);
  return new URL(response.headers.get("location") ?? "");
}

async function codeFlow(as: oauth.AuthorizationServer, client: oauth.Client, resource: string) {
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(as.authorization_endpoint ?? "");
  for (const [k, v] of Object.entries({
    response_type: "code",
    client_id: client.client_id,
    redirect_uri: REDIRECT,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256",
    state,
    resource,
    scope: "mcp:read mcp:write",
  }))
    url.searchParams.set(k, v);
  // Checks state and, as the server announces it, iss (RFC 9207).
  const params = oauth.validateAuthResponse(as, client, await approve(url), state);
  const response = await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, REDIRECT, verifier, {
    additionalParameters: { resource },
    ...opts(),
  });
  return oauth.processAuthorizationCodeResponse(as, client, response);
}

describe("OAuth 2.1 over TLS with oauth4webapi as the client", () => {
  it("discovers from the 401, registers, is approved by the owner, calls tools, refreshes and revokes", async () => {
    const { as, resource } = await discover();
    expect(resource).toBe(bridge.remoteMcpUrl);
    const registered = await oauth.processDynamicClientRegistrationResponse(
      await oauth.dynamicClientRegistrationRequest(
        as,
        { client_name: "oauth4webapi test", redirect_uris: [REDIRECT], token_endpoint_auth_method: "none" },
        opts(),
      ),
    );
    const client: oauth.Client = { client_id: registered.client_id, token_endpoint_auth_method: "none" };
    const tokens = await codeFlow(as, client, resource);
    expect(tokens.token_type).toBe("bearer");
    expect(tokens.scope).toBe("mcp:read mcp:write");

    const list = await mcpCall(fetch, { url: bridge.remoteMcpUrl, token: tokens.access_token, method: "tools/list" });
    expect(list.status).toBe(200);
    expect(JSON.stringify(list.body)).toContain('"readFile"');
    const read = await mcpCall(fetch, {
      url: bridge.remoteMcpUrl,
      token: tokens.access_token,
      method: "tools/call",
      params: { name: "readFile", arguments: { path: "README.md" } },
    });
    expect(JSON.stringify(read.body)).toContain("Fixture app");

    const refreshed = await oauth.processRefreshTokenResponse(
      as,
      client,
      await oauth.refreshTokenGrantRequest(as, client, oauth.None(), tokens.refresh_token ?? "", {
        additionalParameters: { resource },
        ...opts(),
      }),
    );
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    expect((await mcpCall(fetch, { url: bridge.remoteMcpUrl, token: refreshed.access_token, method: "tools/list" })).status).toBe(200);

    await oauth.processRevocationResponse(await oauth.revocationRequest(as, client, oauth.None(), refreshed.refresh_token ?? "", opts()));
    const after = await mcpCall(fetch, { url: bridge.remoteMcpUrl, token: refreshed.access_token, method: "tools/list" });
    expect(after.status).toBe(401);
    expect(after.wwwAuthenticate).toContain('error="invalid_token"');
  });

  it("takes a client whose client_id is its metadata document URL, fetched once and cached", async () => {
    const { as, resource } = await discover();
    const client: oauth.Client = { client_id: metadataUrl, token_endpoint_auth_method: "none" };
    const before = metadataFetches;
    const tokens = await codeFlow(as, client, resource);
    expect(metadataFetches - before).toBe(1);
    expect((await mcpCall(fetch, { url: bridge.remoteMcpUrl, token: tokens.access_token, method: "tools/list" })).status).toBe(200);
  });

  it("keeps the bridge token working locally, on the plain loopback listener of the lock file", async () => {
    const list = await mcpCall(fetch, { url: bridge.mcpUrl, token: bridge.token, method: "tools/list" });
    expect(list.status).toBe(200);
    const health = await fetch(`${bridge.url}/health`, { headers: { authorization: `Bearer ${bridge.token}` } });
    expect(health.status).toBe(200);
  });

  it("keeps its state owner-only: directory 0700, files 0600", async () => {
    const stateDir = join(bridge.configDir, "ide", "oauth", new URL(bridge.issuer).host.replace(":", "_"));
    expect((await stat(stateDir)).mode & 0o777).toBe(0o700);
    for (const file of ["keys.json", "clients.json", "grants.json"])
      expect((await stat(join(stateDir, file))).mode & 0o777, file).toBe(0o600);
  });
});
