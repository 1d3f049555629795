// `claude-ide-bridge oauth list|revoke` as a user runs it: against a running bridge (asked through
// its lock file; the revocation holds at once) and, once it stopped, on the state it left on disk.
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fetchTrusting } from "../../helpers/fetch-trusting.ts";
import { mcpCall } from "../../helpers/oauth-app.ts";
import { authorize, pkce, register, tokenRequest } from "../../helpers/oauth-client.ts";
import { startRemoteBridge, tlsArgs, type RemoteBridge } from "../../helpers/remote-bridge.ts";
import { BRIDGE_BIN, REPO_ROOT } from "../../helpers/spawn-bridge.ts";
import { makeTestCa } from "../../helpers/test-ca.ts";

let dir: string;
let configDir: string;
let bridge: RemoteBridge;
let fetch: ReturnType<typeof fetchTrusting>;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "oauth-cli-"));
  configDir = join(dir, "config");
  const ca = await makeTestCa(join(dir, "ca"));
  fetch = fetchTrusting(ca.ca);
  bridge = await startRemoteBridge({ args: tlsArgs(ca), configDir });
});

afterAll(async () => {
  await bridge?.stop();
  await rm(dir, { recursive: true, force: true });
});

async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [BRIDGE_BIN, "oauth", ...args], {
      cwd: REPO_ROOT,
      env: { ...process.env, CLAUDE_CONFIG_DIR: configDir },
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === "number" ? e.code : 1, stdout: e.stdout ?? "", stderr: e.stderr ?? "" };
  }
}

/** A grant made the way a client makes one; its tokens. */
async function grant(name: string): Promise<{ clientId: string; access: string; refresh: string }> {
  const client = await register(fetch, `${bridge.issuer}/oauth/register`, { client_name: name });
  const { verifier, challenge } = pkce();
  const redirect = await authorize(fetch, {
    authorizationEndpoint: `${bridge.issuer}/oauth/authorize`,
    ...client,
    challenge,
    ownerToken: bridge.token,
  });
  const tokens = await tokenRequest(fetch, `${bridge.issuer}/oauth/token`, {
    grant_type: "authorization_code",
    code: redirect.searchParams.get("code") ?? "",
    client_id: client.clientId,
    redirect_uri: client.redirectUri,
    code_verifier: verifier,
  });
  return { clientId: client.clientId, access: String(tokens.json.access_token), refresh: String(tokens.json.refresh_token) };
}

describe("claude-ide-bridge oauth", () => {
  it("lists a running bridge's grants and revokes one, which stops its access token at once", async () => {
    const kept = await grant("Kept client");
    const ended = await grant("Ended client");
    const listed = await cli(["list", "--json"]);
    expect(listed.code, listed.stderr).toBe(0);
    const [issuer] = JSON.parse(listed.stdout) as {
      issuer: string;
      source: string;
      grants: { id: string; clientId: string; status: string; clientName: string }[];
    }[];
    expect(issuer?.issuer).toBe(bridge.issuer);
    expect(issuer?.source).toBe(`bridge on port ${bridge.port}`);
    const endedGrant = issuer?.grants.find((g) => g.clientId === ended.clientId);
    expect(endedGrant).toMatchObject({ status: "active", clientName: "Ended client" });

    const revoked = await cli(["revoke", endedGrant?.id ?? ""]);
    expect(revoked.code, revoked.stderr).toBe(0);
    expect(revoked.stdout).toContain(`revoked ${endedGrant?.id} (bridge on port ${bridge.port})`);
    expect((await mcpCall(fetch, { url: bridge.remoteMcpUrl, token: ended.access, method: "tools/list" })).status).toBe(401);
    expect((await mcpCall(fetch, { url: bridge.remoteMcpUrl, token: kept.access, method: "tools/list" })).status).toBe(200);

    const text = await cli(["list"]);
    expect(text.stdout).toMatch(new RegExp(`${endedGrant?.id}  revoked  Ended client \\(${ended.clientId}\\)  \\[mcp:read mcp:write\\]`));
    expect(text.stdout).toMatch(/active +Kept client/);
  });

  it("works on the state on disk once the bridge has stopped, and says when nothing matched", async () => {
    const issuer = bridge.issuer;
    await bridge.stop();
    const listed = await cli(["list", "--json"]);
    const [state] = JSON.parse(listed.stdout) as { issuer: string; source: string; grants: { id: string; status: string }[] }[];
    expect(state?.issuer).toBe(issuer);
    expect(state?.source).toMatch(/no bridge running$/);
    const active = state?.grants.filter((g) => g.status === "active") ?? [];
    expect(active.length).toBeGreaterThan(0);
    const all = await cli(["revoke", "--all"]);
    expect(all.code).toBe(0);
    expect(all.stdout.trim().split("\n")).toHaveLength(active.length);
    const again = await cli(["revoke", "--all"]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("no active grant matched");
    expect((await cli(["frobnicate"])).code).toBe(2);
  });
});
