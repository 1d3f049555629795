// The SSRF defence of sendHttpRequest, proven against a real loopback listener that counts
// connections: every blocked URL (IP spellings, IPv6 forms, names a stubbed resolver maps to
// private addresses, redirects to them) must leave the count at zero, while the same listener is
// reached at once when --allow-private-http is on. The resolver is stubbed at the Runtime boundary
// (resolveHost); public addresses are answered by a stubbed fetchPinned, never by the network.
import { createServer, type Server } from "node:http";
import { mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createNodeRuntime } from "../../../runtime/node.ts";
import type { PinnedFetchInit } from "../../../src/ports/net.ts";
import type { Runtime } from "../../../src/ports/runtime.ts";
import { lexicalBlockReason } from "../../../src/security/network/blocked-addresses.ts";
import { checkTarget } from "../../../src/security/network/ssrf.ts";
import { formatIpv4, parseIpv4, parseIpv6 } from "../../../src/security/network/ip-address.ts";
import { dispatcher } from "../../helpers/tool-dispatch.ts";

const PUBLIC = "93.184.216.34";
let server: Server;
let port = 0;
let connections = 0;
let root: string;
const pinnedCalls: { url: string; address: string }[] = [];

/** What the stubbed resolver answers; anything else does not resolve. */
const DNS: Record<string, string[] | (() => string[])> = {
  "public.test": [PUBLIC],
  "rebind.test": ["127.0.0.1"],
  "metadata.test": ["169.254.169.254"],
  "ten.test": ["10.1.2.3"],
  "mixed.test": [PUBLIC, "192.168.1.1"],
  "v6loop.test": ["::1"],
  "v6mapped.test": ["::ffff:127.0.0.1"],
  "ula.test": ["fd00:ec2::254"],
  "cgnat.test": ["100.100.100.200"],
  "redirect.test": [PUBLIC],
};

let flips = 0;
DNS["flip.test"] = () => (flips++ === 0 ? [PUBLIC] : ["127.0.0.1"]);

function stubbedRuntime(): Runtime {
  const real = createNodeRuntime();
  return {
    ...real,
    async resolveHost(host) {
      const answer = DNS[host];
      if (answer === undefined) throw new Error(`ENOTFOUND ${host}`);
      return typeof answer === "function" ? answer() : answer;
    },
    async fetchPinned(url: string, init: PinnedFetchInit) {
      pinnedCalls.push({ url, address: init.address });
      // The public address is answered here; a redirect points at the loopback listener.
      if (init.address === PUBLIC) {
        const target = new URL(url);
        if (target.hostname === "redirect.test") {
          const to = target.searchParams.get("to") ?? `http://127.0.0.1:${port}/`;
          return new Response(null, { status: 302, headers: { location: to } });
        }
        return new Response("public answer", { status: 200, headers: { "content-type": "text/plain" } });
      }
      return real.fetchPinned(url, init);
    },
  };
}

beforeAll(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), "cib-ssrf-")));
  server = createServer((_req, res) => res.end("private answer"));
  server.on("connection", () => {
    connections += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, "::", resolve));
  const address = server.address();
  port = typeof address === "object" && address !== null ? address.port : 0;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await rm(root, { recursive: true, force: true });
});

const blocked = (): string[] => [
  `http://127.0.0.1:${port}/`,
  `http://127.1:${port}/`,
  `http://127.0.1:${port}/`,
  `http://2130706433:${port}/`,
  `http://0x7f000001:${port}/`,
  `http://0x7f.0x0.0x0.0x1:${port}/`,
  `http://0177.0.0.1:${port}/`,
  `http://017700000001:${port}/`,
  `http://0x7f.1:${port}/`,
  `http://127.000.000.001:${port}/`,
  `http://0.0.0.0:${port}/`,
  `http://0:${port}/`,
  `http://localhost:${port}/`,
  `http://LOCALHOST.:${port}/`,
  `http://api.localhost:${port}/`,
  `http://localhost.localdomain:${port}/`,
  `http://[::1]:${port}/`,
  `http://[0:0:0:0:0:0:0:1]:${port}/`,
  `http://[::]:${port}/`,
  `http://[::ffff:127.0.0.1]:${port}/`,
  `http://[::ffff:7f00:1]:${port}/`,
  `http://[0:0:0:0:0:ffff:127.0.0.1]:${port}/`,
  `http://[::ffff:0:127.0.0.1]:${port}/`,
  `http://[::127.0.0.1]:${port}/`,
  `http://[64:ff9b::7f00:1]:${port}/`,
  `http://[2002:7f00:1::]:${port}/`,
  `http://[fe80::1]:${port}/`,
  `http://[fc00::1]:${port}/`,
  `http://[fd00:ec2::254]/`,
  `http://[ff02::1]:${port}/`,
  `http://[2001:db8::1]:${port}/`,
  `http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/`,
  `http://[::ffff:169.254.169.254]/`,
  "http://169.254.169.254/latest/meta-data/",
  "http://2852039166/latest/meta-data/",
  "http://metadata.google.internal/computeMetadata/v1/",
  "http://100.100.100.200/",
  "http://10.0.0.1/",
  "http://172.16.5.4/",
  "http://192.168.0.1/",
  "http://198.18.0.1/",
  "http://224.0.0.1/",
  "http://255.255.255.255/",
  `http://rebind.test:${port}/`,
  "http://metadata.test/",
  "http://ten.test/",
  "http://mixed.test/",
  `http://v6loop.test:${port}/`,
  `http://v6mapped.test:${port}/`,
  "http://ula.test/",
  "http://cgnat.test/",
  `http://redirect.test/`,
  `http://redirect.test/?to=${encodeURIComponent(`http://[::1]:${port}/`)}`,
  `http://redirect.test/?to=${encodeURIComponent(`http://rebind.test:${port}/`)}`,
  `http://redirect.test/?to=${encodeURIComponent("http://169.254.169.254/")}`,
];

describe("sendHttpRequest refuses private destinations", () => {
  it(`connects to nothing for ${blocked().length} blocked URLs (IP spellings, IPv6 forms, resolved names, redirects)`, async () => {
    const d = await dispatcher(root, { runtime: stubbedRuntime() });
    const table = blocked();
    expect(table.length).toBeGreaterThanOrEqual(40);
    for (const url of table) {
      const failure = await d.failure("sendHttpRequest", { url });
      expect(failure.code, url).toBe("address_blocked");
      expect(failure.suggestion).toMatch(/--allow-private-http/);
    }
    expect(connections).toBe(0);
    // Nothing but the public address was ever handed to the pinned fetch.
    expect(pinnedCalls.every((c) => c.address === PUBLIC)).toBe(true);
  });

  it("pins the connection to the checked address, so a second, rebinding answer changes nothing", async () => {
    const d = await dispatcher(root, { runtime: stubbedRuntime() });
    pinnedCalls.length = 0;
    const text = await d.text("sendHttpRequest", { url: `http://flip.test:${port}/` });
    expect(text).toMatch(/^HTTP 200/);
    expect(text).toContain("public answer");
    expect(pinnedCalls).toEqual([{ url: `http://flip.test:${port}/`, address: PUBLIC }]);
    expect(connections).toBe(0);
  });

  it("refuses URLs that are not http(s) and credentials in the URL", async () => {
    const d = await dispatcher(root, { runtime: stubbedRuntime() });
    for (const url of ["file:///etc/passwd", "gopher://127.0.0.1/", "ftp://public.test/", "http://user:pw@public.test/", "not a url"]) {
      expect((await d.failure("sendHttpRequest", { url })).code, url).toBe("invalid_url");
    }
    expect((await d.failure("sendHttpRequest", { url: "http://nowhere.test/" })).code).toBe("request_failed");
  });

  it("reaches the same listener with --allow-private-http, which shows the count would see a connection", async () => {
    const d = await dispatcher(root, { runtime: stubbedRuntime(), settings: { allowPrivateHttp: true } });
    const text = await d.text("sendHttpRequest", { url: `http://127.0.0.1:${port}/`, method: "POST", body: "x" });
    expect(text).toMatch(/^HTTP 200/);
    expect(text).toContain("private answer");
    expect(connections).toBeGreaterThan(0);
    connections = 0;
  });

  it("caps the body at 50 KB by default and says so", async () => {
    const big = createServer((_req, res) => res.end("y".repeat(200_000)));
    await new Promise<void>((resolve) => big.listen(0, "127.0.0.1", resolve));
    const address = big.address();
    const bigPort = typeof address === "object" && address !== null ? address.port : 0;
    try {
      const d = await dispatcher(root, { settings: { allowPrivateHttp: true } });
      const text = await d.text("sendHttpRequest", { url: `http://127.0.0.1:${bigPort}/` });
      expect(text).toContain("y".repeat(50 * 1024));
      expect(text).not.toContain("y".repeat(50 * 1024 + 1));
      expect(text).toMatch(/body cut at 51200 bytes/);
    } finally {
      await new Promise<void>((resolve) => big.close(() => resolve()));
    }
  });
});

describe("IP literal parsing", () => {
  it("reads every inet_aton IPv4 form as the OS would", () => {
    const forms: [string, string][] = [
      ["127.0.0.1", "127.0.0.1"],
      ["127.1", "127.0.0.1"],
      ["127.0.1", "127.0.0.1"],
      ["2130706433", "127.0.0.1"],
      ["0x7f000001", "127.0.0.1"],
      ["0177.0.0.01", "127.0.0.1"],
      ["0x7F.0.0.0x1", "127.0.0.1"],
      ["017700000001", "127.0.0.1"],
      ["169.254.43518", "169.254.169.254"],
      ["0", "0.0.0.0"],
      ["1.2.3.4.", "1.2.3.4"],
    ];
    for (const [text, dotted] of forms) expect(formatIpv4(parseIpv4(text)?.value ?? -1), text).toBe(dotted);
    for (const text of ["256.1.1.1", "1.2.3.4.5", "08.1.1.1", "0x1g.1", "example.com", "1.2.3.4294967296", ""])
      expect(parseIpv4(text), text).toBeUndefined();
  });

  it("reads IPv6 with compression, dotted tails, brackets and zone ids", () => {
    expect(parseIpv6("::1")?.groups).toEqual([0, 0, 0, 0, 0, 0, 0, 1]);
    expect(parseIpv6("[fe80::1%25eth0]")?.groups).toEqual([0xfe80, 0, 0, 0, 0, 0, 0, 1]);
    expect(parseIpv6("::ffff:1.2.3.4")?.groups).toEqual([0, 0, 0, 0, 0, 0xffff, 0x102, 0x304]);
    for (const text of [":::1", "1::2::3", "1:2:3:4:5:6:7:8:9", "::ffff:1.2.3", "12345::1", "g::1"])
      expect(parseIpv6(text), text).toBeUndefined();
  });

  it("blocks by the innermost address and lets public ones through", () => {
    for (const host of ["::ffff:10.0.0.1", "[::ffff:a00:1]", "64:ff9b::a9fe:a9fe", "2002:c0a8:101::1", "::ffff:0:192.168.0.1"])
      expect(lexicalBlockReason(host), host).toBeDefined();
    for (const host of ["8.8.8.8", "93.184.216.34", "2606:4700:4700::1111", "::ffff:8.8.8.8", "example.com", "localhost.example.com"])
      expect(lexicalBlockReason(host), host).toBeUndefined();
  });
});

it("says why a name could not be resolved, in the resolver's words", async () => {
  const resolveHost = async (): Promise<string[]> => {
    throw Object.assign(new Error("getaddrinfo EAI_AGAIN localhost"), { code: "EAI_AGAIN" });
  };
  await expect(checkTarget("http://localhost:8080/x", { resolveHost, allowPrivate: true })).rejects.toThrow(
    "localhost could not be resolved (getaddrinfo EAI_AGAIN localhost)",
  );
});
