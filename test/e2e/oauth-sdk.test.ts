// The official MCP SDK client's OAuth provider against the real bridge over TLS: the first connect
// meets the 401, the SDK discovers both metadata documents, registers, and sends its user to the
// authorization URL; here the "user" is the owner filling in the approval form. The SDK then
// exchanges the code (PKCE, resource indicator) and calls tools with the token; a read-only grant
// sees only read-only tools.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fetchTrusting } from "../helpers/fetch-trusting.ts";
import { answer, openApproval } from "../helpers/oauth-client.ts";
import { startRemoteBridge, tlsArgs, type RemoteBridge } from "../helpers/remote-bridge.ts";
import { makeTestCa, type TestCa } from "../helpers/test-ca.ts";

const REDIRECT = "http://127.0.0.1:33419/callback";

let dir: string;
let ca: TestCa;
let bridge: RemoteBridge;
let fetch: ReturnType<typeof fetchTrusting>;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "oauth-sdk-"));
  ca = await makeTestCa(join(dir, "ca"));
  fetch = fetchTrusting(ca.ca);
  bridge = await startRemoteBridge({ args: tlsArgs(ca) });
});

afterAll(async () => {
  await bridge?.stop();
  await rm(dir, { recursive: true, force: true });
});

/** An in-memory provider whose "browser" is the owner approving on the bridge's page with the given scopes. */
class OwnerApprovingProvider implements OAuthClientProvider {
  client: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = "";
  code: string | undefined;
  redirects = 0;
  constructor(private readonly scopes: string[]) {}
  get redirectUrl(): string {
    return REDIRECT;
  }
  get clientMetadata(): OAuthClientMetadata {
    return { client_name: "MCP SDK e2e", redirect_uris: [REDIRECT], token_endpoint_auth_method: "none", scope: this.scopes.join(" ") };
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.client = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
  async redirectToAuthorization(url: URL) {
    this.redirects += 1;
    const form = await openApproval(fetch, url.href);
    if (form instanceof Response) throw new Error(`no approval page: ${form.status} ${await form.text()}`);
    const response = await answer(fetch, form, { ownerToken: bridge.token, scopes: this.scopes });
    const back = new URL(response.headers.get("location") ?? "");
    expect(back.origin + back.pathname).toBe(REDIRECT);
    expect(back.searchParams.get("iss")).toBe(bridge.issuer);
    this.code = back.searchParams.get("code") ?? undefined;
  }
}

/** The SDK's dance: connect, be told to authorize, finish with the code, connect again. */
async function connect(provider: OwnerApprovingProvider): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const make = () => new StreamableHTTPClientTransport(new URL(bridge.remoteMcpUrl), { authProvider: provider, fetch });
  const first = make();
  const client = new Client({ name: "e2e-oauth-sdk", version: "0.0.0" });
  await expect(client.connect(first)).rejects.toBeInstanceOf(UnauthorizedError);
  expect(provider.code).toBeDefined();
  await first.finishAuth(provider.code ?? "");
  await first.close();
  const transport = make();
  const connected = new Client({ name: "e2e-oauth-sdk", version: "0.0.0" });
  await connected.connect(transport);
  return { client: connected, transport };
}

describe("the MCP SDK client's OAuth provider against the bridge over TLS", () => {
  it("registers, is approved by the owner, exchanges the code and calls a tool with the token", async () => {
    const provider = new OwnerApprovingProvider(["mcp:read", "mcp:write"]);
    const { client, transport } = await connect(provider);
    try {
      expect(provider.redirects).toBe(1);
      expect(provider.client?.client_id).toBeTruthy();
      expect(provider.saved?.refresh_token).toBeTruthy();
      expect(provider.saved?.scope).toBe("mcp:read mcp:write");
      const { tools } = await client.listTools();
      const names = tools.map((t) => t.name);
      expect(names).toContain("readFile");
      expect(tools.some((t) => t.annotations?.readOnlyHint !== true)).toBe(true);
      const result = await client.callTool({ name: "readFile", arguments: { path: "README.md" } });
      expect(result.isError ?? false).toBe(false);
      expect(JSON.stringify(result.content)).toContain("A tiny workspace");
    } finally {
      await transport.terminateSession().catch(() => undefined);
      await client.close();
    }
  });

  it("with only mcp:read granted, lists only read-only tools", async () => {
    const provider = new OwnerApprovingProvider(["mcp:read"]);
    const { client, transport } = await connect(provider);
    try {
      expect(provider.saved?.scope).toBe("mcp:read");
      const { tools } = await client.listTools();
      expect(tools.length).toBeGreaterThan(0);
      for (const tool of tools) expect(tool.annotations?.readOnlyHint, tool.name).toBe(true);
    } finally {
      await transport.terminateSession().catch(() => undefined);
      await client.close();
    }
  });
});
