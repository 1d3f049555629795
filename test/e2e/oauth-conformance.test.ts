// The MCP conformance suite's authorization scenarios (@modelcontextprotocol/conformance
// 0.2.0-alpha.12, which needs Node 22: run through `npx -p node@22`) against the bridge's own
// authorization server over TLS (a test CA, NODE_EXTRA_CA_CERTS): authorization server metadata,
// and the authorization code grant with PKCE and the resource indicator. The suite prints the
// authorization URL and waits for a browser; the test is that browser, the owner approving on the
// bridge's page, the redirect going to the suite's loopback callback.
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { fetchTrusting } from "../helpers/fetch-trusting.ts";
import { answer, openApproval, register } from "../helpers/oauth-client.ts";
import { startRemoteBridge, tlsArgs, type RemoteBridge } from "../helpers/remote-bridge.ts";
import { makeTestCa, type TestCa } from "../helpers/test-ca.ts";

const CONFORMANCE = "@modelcontextprotocol/conformance@0.2.0-alpha.12";
const SCENARIOS = ["authorization-server-metadata-endpoint", "authorization-code-grant"];
const AUTHORIZE_URL = /https:\/\/[^\s\u0007\u001b"']+\/oauth\/authorize\?[^\s\u0007\u001b"']+/;
// The first run fetches Node 22 and the suite into npm's cache.
const RUN_TIMEOUT_MS = 300_000;

let dir: string;
let ca: TestCa;
let bridge: RemoteBridge;
let fetch: ReturnType<typeof fetchTrusting>;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "oauth-conformance-"));
  ca = await makeTestCa(join(dir, "ca"));
  fetch = fetchTrusting(ca.ca);
  bridge = await startRemoteBridge({ args: tlsArgs(ca) });
});

afterAll(async () => {
  await bridge?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** A port free a moment ago, for the suite's callback listener (it takes a fixed one). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Runs the suite; `onUrl` plays the browser for the authorization URL it prints. */
function runAuthorization(args: string[], onUrl: (url: string) => Promise<void>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const command = `conformance authorization ${args.map((a) => `'${a}'`).join(" ")}`;
    const child = spawn("npx", ["-y", "-p", "node@22", "-p", CONFORMANCE, "-c", command], {
      cwd: dir,
      env: { ...process.env, NODE_EXTRA_CA_CERTS: ca.caFile },
      stdio: ["ignore", "pipe", "pipe"],
      // Its own process group: npx runs the suite in a child, and a failed test stops both.
      detached: true,
    });
    const stop = () => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
      } catch {
        // Already gone.
      }
    };
    let output = "";
    let browsed = 0;
    const timer = setTimeout(() => {
      stop();
      reject(new Error(`conformance did not finish within ${RUN_TIMEOUT_MS} ms; output so far:\n${output}`));
    }, RUN_TIMEOUT_MS);
    const onData = (d: Buffer) => {
      output += d.toString("utf8");
      // Each authorization URL printed is opened once.
      const urls = output.match(new RegExp(AUTHORIZE_URL, "g")) ?? [];
      while (browsed < urls.length) {
        const url = urls[browsed] ?? "";
        browsed += 1;
        onUrl(url).catch((err: unknown) => {
          clearTimeout(timer);
          stop();
          reject(err);
        });
      }
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.once("error", (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.once("close", (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

it(
  "passes the conformance suite's authorization scenarios",
  async () => {
    const port = await freePort();
    const client = await register(fetch, `${bridge.issuer}/oauth/register`, {
      client_name: "MCP conformance suite",
      redirect_uris: [`http://127.0.0.1:${port}/callback`],
    });
    const approved: string[] = [];
    const { code, output } = await runAuthorization(
      [
        "--url",
        bridge.issuer,
        "--client-id",
        client.clientId,
        "--resource",
        bridge.remoteMcpUrl,
        "-p",
        String(port),
        "-o",
        join(dir, "out"),
      ],
      async (url) => {
        const form = await openApproval(fetch, url);
        if (form instanceof Response) throw new Error(`no approval page: ${form.status} ${await form.text()}`);
        const response = await answer(fetch, form, { ownerToken: bridge.token });
        const location = response.headers.get("location");
        if (response.status !== 303 || location === null) throw new Error(`approval failed: ${response.status}`);
        approved.push(location);
        // The browser following the redirect to the suite's callback listener.
        await (await fetch(location)).text();
      },
    );
    const tail = output.slice(-6000);
    const summary = output.slice(output.indexOf("=== SUMMARY ==="));
    for (const scenario of SCENARIOS) expect(summary, tail).toMatch(new RegExp(`✓ ${scenario}: [1-9]\\d* passed, 0 failed`));
    expect(summary, tail).toMatch(/Total: [1-9]\d* passed, 0 failed/);
    expect(code, tail).toBe(0);
    expect(approved.length, tail).toBeGreaterThan(0);
    process.stderr.write(`conformance authorization (${CONFORMANCE}): ${SCENARIOS.join(", ")} passed\n`);
  },
  RUN_TIMEOUT_MS + 30_000,
);
