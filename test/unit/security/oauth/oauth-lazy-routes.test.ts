// The OAuth routes load on their first request (src/app.ts) and must answer as when they were
// mounted on the app itself: their own paths served, behind an issuer's path prefix too, and any
// other path under /oauth or /.well-known answered with the app's own 404 JSON.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeOAuthApp, type OAuthApp } from "../../../helpers/oauth-app.ts";

describe.each([
  ["at the root", "https://bridge.example.com"],
  ["behind a path prefix", "https://bridge.example.com/ide"],
])("the OAuth routes, loaded on first use, %s", (_where, issuer) => {
  let app: OAuthApp;
  beforeAll(async () => {
    app = await makeOAuthApp({ issuer });
  });
  afterAll(async () => {
    await app.close();
  });

  it("serve their endpoints: the signing keys and the protected resource's metadata", async () => {
    const jwks = await app.fetch(`${issuer}/oauth/jwks`);
    expect(jwks.status).toBe(200);
    expect(((await jwks.json()) as { keys: unknown[] }).keys.length).toBeGreaterThan(0);
    const path = new URL(issuer).pathname.replace(/\/$/, "");
    const metadata = await app.fetch(`https://bridge.example.com/.well-known/oauth-protected-resource${path}/mcp`);
    expect(metadata.status).toBe(200);
    expect(await metadata.json()).toMatchObject({ resource: `${issuer}/mcp` });
  });

  it("answer a path they do not serve with the app's 404, naming the path", async () => {
    const unknown = await app.fetch(`${issuer}/oauth/no-such-endpoint`);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ error: "not found", path: "/oauth/no-such-endpoint" });
    const wrongMethod = await app.fetch(`${issuer}/oauth/jwks`, { method: "DELETE" });
    expect(wrongMethod.status).toBe(404);
    expect(await wrongMethod.json()).toEqual({ error: "not found", path: "/oauth/jwks" });
  });
});
