// Remote access on every runtime: the bridge serves TLS itself (Node's https, Bun.serve's tls,
// Deno.serve's cert and key) with a certificate of a test CA, signs ES256 access tokens with
// WebCrypto through jose, and keeps a plain loopback listener for the lock file.
import { mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fetchTrusting } from "../helpers/fetch-trusting.ts";
import { mcpCall } from "../helpers/oauth-app.ts";
import { authorize, pkce, register, tokenRequest } from "../helpers/oauth-client.ts";
import { makeWorkspace, randomToken } from "../helpers/spawn-bridge.ts";
import { makeTestCa, type TestCa } from "../helpers/test-ca.ts";
import { startProcess, type Started } from "./process.ts";
import { bridgeCommand, RUNTIMES } from "./runtimes.ts";

const REMOTE = /remote access at (https:\/\/localhost:\d+)\/mcp /;
const LISTENING = /listening on (http:\/\/127\.0\.0\.1:\d+) /;

let dir: string;
let ca: TestCa;

beforeAll(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), "contract-tls-")));
  ca = await makeTestCa(join(dir, "ca"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe.each(RUNTIMES)("remote access on %s", (runtime) => {
  let proc: Started;
  let issuer: string;
  let local: string;
  let workspace: string;
  const token = randomToken();

  beforeAll(async () => {
    workspace = await makeWorkspace();
    const configDir = join(dir, `config-${runtime}`);
    const args = [
      "--workspace",
      workspace,
      "--port",
      "0",
      "--fixed-token",
      token,
      "--tls-cert",
      ca.certFile,
      "--tls-key",
      ca.keyFile,
      "--bind",
      "localhost",
    ];
    proc = await startProcess([...bridgeCommand(runtime), ...args], { ready: REMOTE, env: { CLAUDE_CONFIG_DIR: configDir } });
    issuer = proc.ready[1] ?? "";
    local = LISTENING.exec(proc.stderr())?.[1] ?? "";
  });
  afterAll(async () => {
    await proc?.stop();
    await rm(workspace, { recursive: true, force: true });
  });

  it("serves the metadata and the 401 challenge over TLS", async () => {
    const fetch = fetchTrusting(ca.ca);
    const prm = await fetch(`${issuer}/.well-known/oauth-protected-resource/mcp`);
    expect(await prm.json()).toMatchObject({ resource: `${issuer}/mcp`, authorization_servers: [issuer] });
    const refused = await fetch(`${issuer}/mcp`, { method: "POST" });
    expect(refused.status).toBe(401);
    expect(refused.headers.get("www-authenticate")).toContain(`resource_metadata="${issuer}/.well-known/oauth-protected-resource/mcp"`);
    // Plain HTTP on the TLS port is not answered as HTTP.
    await expect(
      globalThis
        .fetch(`${issuer.replace("https:", "http:")}/mcp`, { method: "POST", signal: AbortSignal.timeout(5000) })
        .then((r) => r.status),
    ).rejects.toThrow();
  });

  it("issues ES256 tokens through the approval form that call a tool", async () => {
    const fetch = fetchTrusting(ca.ca);
    const client = await register(fetch, `${issuer}/oauth/register`);
    const { verifier, challenge } = pkce();
    const redirect = await authorize(fetch, {
      authorizationEndpoint: `${issuer}/oauth/authorize`,
      ...client,
      challenge,
      resource: `${issuer}/mcp`,
      ownerToken: token,
    });
    expect(redirect.searchParams.get("iss")).toBe(issuer);
    const tokens = await tokenRequest(fetch, `${issuer}/oauth/token`, {
      grant_type: "authorization_code",
      code: redirect.searchParams.get("code") ?? "",
      client_id: client.clientId,
      redirect_uri: client.redirectUri,
      code_verifier: verifier,
      resource: `${issuer}/mcp`,
    });
    expect(tokens.status).toBe(200);
    const call = await mcpCall(fetch, {
      url: `${issuer}/mcp`,
      token: String(tokens.json.access_token),
      method: "tools/call",
      params: { name: "getWorkspaceFolders", arguments: {} },
    });
    expect(JSON.stringify(call.body)).toContain(workspace);
  });

  it("keeps a plain loopback listener for the lock file, with the bridge token", async () => {
    expect(local).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const health = await globalThis.fetch(`${local}/health`, { headers: { authorization: `Bearer ${token}` } });
    expect(((await health.json()) as { runtime: string }).runtime).toBe(runtime);
  });
});
