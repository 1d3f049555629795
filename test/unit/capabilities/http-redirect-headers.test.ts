// sendHttpRequest on real loopback servers (--allow-private-http): two ports are two origins. On a
// redirect to the other origin no credential-like header reaches it (the Fetch standard's three,
// API key headers, anything the secret rule names, a token-shaped value under an innocent name),
// and the answer says which were held back; on a redirect within the origin every header goes on,
// and ordinary headers go on across origins too.
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dispatcher } from "../../helpers/tool-dispatch.ts";

/** Header name -> value: each must not reach another origin. */
const CREDENTIALS: Record<string, string> = {
  Authorization: "Bearer a-secret",
  "Proxy-Authorization": "Basic cHJveHk6c2VjcmV0",
  Cookie: "session=secret",
  "X-Api-Key": "key-secret",
  "Private-Token": "gitlab-secret",
  "X-Auth-Token": "auth-secret",
  "X-Access-Token": "access-secret",
  "X-Amz-Security-Token": "amz-secret",
  "X-Vault-Token": "vault-secret",
  "X-Goog-Api-Key": "goog-secret",
  "Api-Key": "plain-secret",
  apikey: "lower-secret",
  "X-Client-Secret": "client-secret",
  "X-Password": "pw-secret",
  "X-Webhook-Signing": "sig-secret",
  "X-Innocent": "ghp_abcdefghijklmnopqrstuvwxyz0123456789",
  "X-Also-Innocent": "Bearer abcdefghijklmnopqrstuvwxyz",
};
const ORDINARY: Record<string, string> = { Accept: "text/plain", "X-Request-Id": "r-1", "User-Agent": "probe/1", "X-Keep": "yes" };

let root: string;
let landing: Server;
let origin: Server;
const seen: IncomingHttpHeaders[] = [];
let landingUrl: string;
let originUrl: string;

function listen(server: Server): Promise<string> {
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
  );
}

beforeAll(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), "cib-redirect-")));
  landing = createServer((req, res) => {
    seen.push(req.headers);
    res.end("landed");
  });
  landingUrl = await listen(landing);
  origin = createServer((req, res) => {
    if (req.url === "/away") res.writeHead(302, { location: `${landingUrl}/landing` }).end();
    else if (req.url === "/stay") res.writeHead(307, { location: "/here" }).end();
    else {
      seen.push(req.headers);
      res.end("here");
    }
  });
  originUrl = await listen(origin);
});

afterAll(async () => {
  await Promise.all([landing, origin].map((s) => new Promise((r) => s.close(r))));
  await rm(root, { recursive: true, force: true });
});

describe("sendHttpRequest redirects and credentials", () => {
  it(`holds back all ${Object.keys(CREDENTIALS).length} credential headers on a redirect to another origin, and says so`, async () => {
    const d = await dispatcher(root, { settings: { allowPrivateHttp: true } });
    seen.length = 0;
    const text = await d.text("sendHttpRequest", { url: `${originUrl}/away`, headers: { ...CREDENTIALS, ...ORDINARY } });
    expect(text).toMatch(/^HTTP 200/);
    expect(seen).toHaveLength(1);
    const arrived = seen[0] ?? {};
    const leaked = Object.keys(CREDENTIALS).filter((name) => arrived[name.toLowerCase()] !== undefined);
    expect(leaked).toEqual([]);
    for (const [name, value] of Object.entries(ORDINARY)) expect(arrived[name.toLowerCase()], name).toBe(value);
    expect(text).toContain(`not sent after the redirect to another origin, as credentials: ${Object.keys(CREDENTIALS).join(", ")}`);
  });

  it("sends every header on after a redirect within the origin", async () => {
    const d = await dispatcher(root, { settings: { allowPrivateHttp: true } });
    seen.length = 0;
    const text = await d.text("sendHttpRequest", { url: `${originUrl}/stay`, headers: { ...CREDENTIALS, ...ORDINARY } });
    expect(text).toMatch(/^HTTP 200/);
    expect(text).not.toContain("not sent after the redirect");
    const arrived = seen[0] ?? {};
    for (const [name, value] of Object.entries({ ...CREDENTIALS, ...ORDINARY })) expect(arrived[name.toLowerCase()], name).toBe(value);
  });
});
