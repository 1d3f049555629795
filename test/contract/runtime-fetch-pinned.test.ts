// Runtime.fetchPinned (runtime/shared/fetch-pinned.ts) held to one contract on node, bun and deno:
// the probe (fixtures/probe-fetch.ts) fetches through its runtime from loopback servers run here,
// which report what reached them. Hostnames end in .invalid, which no resolver answers (RFC 6761),
// so a request that arrives proves no DNS was asked.
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TLSSocket } from "node:tls";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../helpers/spawn-bridge.ts";
import { startProcess, stopAll, type Started } from "./process.ts";
import { assertRuntimesInstalled, RUNTIMES, scriptCommand } from "./runtimes.ts";

const PROBE = join(REPO_ROOT, "test", "contract", "fixtures", "runtime-probe.ts");
const servers: Server[] = [];
let http4: number;
let http6: number | undefined;
let dualStack: number | undefined;
let https4: number;
let refused: number;
let ca: string;

/** What the loopback servers answer: what reached them, or the behaviour a path asks for. */
function handle(req: IncomingMessage, res: ServerResponse): void {
  const url = new URL(req.url ?? "/", "http://x");
  let body = "";
  req.setEncoding("utf8").on("data", (chunk: string) => (body += chunk));
  req.on("end", () => {
    switch (url.pathname) {
      case "/redirect":
        return void res.writeHead(302, { location: "http://elsewhere.invalid/next" }).end();
      case "/silent":
        // Never answers; tells the probe it has the request, so the probe aborts now.
        return void fetch(`http://127.0.0.1:${url.searchParams.get("probe")}/fetch/abort-pending`, { method: "POST" });
      case "/stall":
        return;
      case "/headers-then-stall":
        return void res.writeHead(200, { "content-type": "text/plain" }).write("partial");
      case "/reset":
        // Cut once the headers and a tenth of the body are on their way.
        return void res.writeHead(200, { "content-length": "100" }).write("only ten b", () => res.socket?.destroy());
      case "/no-content":
        return void res.writeHead(204).end();
      default:
        res.writeHead(200, { "content-type": "application/json", "set-cookie": ["a=1", "b=2"] });
        res.end(
          JSON.stringify({
            method: req.method,
            url: req.url,
            host: req.headers.host,
            xTest: req.headers["x-test"] ?? null,
            contentLength: req.headers["content-length"] ?? null,
            body,
            remote: req.socket.remoteAddress,
            servername: (req.socket as Partial<TLSSocket>).servername ?? null,
          }),
        );
    }
  });
}

async function listen(server: Server, host: string): Promise<number | undefined> {
  servers.push(server);
  return new Promise((resolve) => {
    server.once("error", () => resolve(undefined));
    server.listen(0, host, () => resolve((server.address() as AddressInfo).port));
  });
}

/** A self-signed certificate for pinned.invalid, made fresh for this run. */
async function selfSigned(): Promise<{ key: string; cert: string }> {
  const dir = await mkdtemp(join(tmpdir(), "pinned-cert-"));
  try {
    const [key, cert] = [join(dir, "key.pem"), join(dir, "cert.pem")];
    await promisify(execFile)("openssl", [
      ...["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1"],
      ...["-keyout", key, "-out", cert, "-subj", "/CN=pinned.invalid", "-addext", "subjectAltName=DNS:pinned.invalid"],
    ]);
    return { key: await readFile(key, "utf8"), cert: await readFile(cert, "utf8") };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

beforeAll(async () => {
  assertRuntimesInstalled();
  const tls = await selfSigned();
  ca = tls.cert;
  const port = async (server: Server, host: string) => {
    const bound = await listen(server, host);
    if (bound === undefined) throw new Error(`cannot listen on ${host}`);
    return bound;
  };
  http4 = await port(createHttpServer(handle), "127.0.0.1");
  https4 = await port(createHttpsServer(tls, handle), "127.0.0.1");
  http6 = await listen(createHttpServer(handle), "::1");
  dualStack = http6 === undefined ? undefined : await listen(createHttpServer({}, handle), "::");
  const closed = createHttpServer();
  refused = await port(closed, "127.0.0.1");
  await new Promise((resolve) => closed.close(resolve));
});

afterAll(async () => {
  for (const server of servers) server.closeAllConnections?.();
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  await stopAll();
});

interface FetchReport {
  status?: number;
  statusText?: string;
  location?: string | null;
  isResponse?: boolean;
  body?: { ok: string } | { code: string; name: string };
  error?: { code: string; name: string };
}

describe.each(RUNTIMES)("fetchPinned on %s", (runtime) => {
  let probe: Started;
  let probePort: string;
  const pinned = (order: object) =>
    fetch(`http://127.0.0.1:${probePort}/fetch`, { method: "POST", body: JSON.stringify(order) }).then(
      (res) => res.json() as Promise<FetchReport>,
    );
  /** What the echo route saw, from a report's body. */
  const arrived = (report: FetchReport) => JSON.parse(report.body !== undefined && "ok" in report.body ? report.body.ok : "null");

  beforeAll(async () => {
    probe = await startProcess(scriptCommand(runtime, PROBE), { ready: /PROBE_PORT=(\d+)/ });
    probePort = String(probe.ready[1]);
  });

  afterAll(async () => {
    await probe?.stop();
  });

  it("connects to the pinned address for a name no resolver knows, with the URL's Host, method, headers and body", async () => {
    const url = `http://pinned.invalid:${http4}/echo?q=1`;
    const init = { address: "127.0.0.1", method: "PUT", headers: { "x-test": "yes", Host: "evil.invalid" }, body: "päyload" };
    const report = await pinned({ url, init });
    expect(report).toMatchObject({ status: 200, statusText: "OK", isResponse: true });
    expect(arrived(report)).toEqual({
      method: "PUT",
      url: "/echo?q=1",
      host: `pinned.invalid:${http4}`,
      xTest: "yes",
      contentLength: "8",
      body: "päyload",
      remote: "127.0.0.1",
      servername: null,
    });
    expect(arrived(await pinned({ url, init, bodyAsBytes: true }))).toMatchObject({ body: "päyload", contentLength: "8" });
    expect(arrived(await pinned({ url, init: { address: "127.0.0.1" } }))).toMatchObject({ method: "GET", body: "", contentLength: null });
  });

  it("returns a redirect as it is, Location and all, and a 204 without a body", async () => {
    expect(await pinned({ url: `http://pinned.invalid:${http4}/redirect`, init: { address: "127.0.0.1" } })).toMatchObject({
      status: 302,
      location: "http://elsewhere.invalid/next",
      body: { ok: "" },
    });
    expect(await pinned({ url: `http://pinned.invalid:${http4}/no-content`, init: { address: "127.0.0.1" } })).toMatchObject({
      status: 204,
      body: { ok: "" },
    });
  });

  it("fails with ECANCELED on an abort before the call, while waiting for an answer, and while reading the body", async () => {
    const cancelled = { name: "RuntimeError", code: "ECANCELED" };
    const address = "127.0.0.1";
    expect(await pinned({ url: `http://pinned.invalid:${http4}/echo`, init: { address }, abort: "before" })).toEqual({ error: cancelled });
    expect(
      await pinned({ url: `http://pinned.invalid:${http4}/silent?probe=${probePort}`, init: { address }, abort: "on-request" }),
    ).toEqual({ error: cancelled });
    expect(
      await pinned({ url: `http://pinned.invalid:${http4}/headers-then-stall`, init: { address }, abort: "after-headers" }),
    ).toMatchObject({ status: 200, body: cancelled });
  });

  it("fails with ETIMEDOUT past timeoutMs, before the answer or in its body", async () => {
    const timedOut = { name: "RuntimeError", code: "ETIMEDOUT" };
    const init = { address: "127.0.0.1", timeoutMs: 300 };
    expect(await pinned({ url: `http://pinned.invalid:${http4}/stall`, init })).toEqual({ error: timedOut });
    expect(await pinned({ url: `http://pinned.invalid:${http4}/headers-then-stall`, init })).toMatchObject({ status: 200, body: timedOut });
  });

  it("fails with ECONNREFUSED on a closed port and ECONNRESET on a body cut short", async () => {
    expect(await pinned({ url: `http://pinned.invalid:${refused}/`, init: { address: "127.0.0.1" } })).toEqual({
      error: { name: "RuntimeError", code: "ECONNREFUSED" },
    });
    expect(await pinned({ url: `http://pinned.invalid:${http4}/reset`, init: { address: "127.0.0.1" } })).toMatchObject({
      status: 200,
      body: { name: "RuntimeError", code: "ECONNRESET" },
    });
  });

  it("refuses what it cannot pin with EINVAL: a name as the address, a non-HTTP URL", async () => {
    const invalid = { error: { name: "RuntimeError", code: "EINVAL" } };
    expect(await pinned({ url: `http://pinned.invalid:${http4}/`, init: { address: "localhost" } })).toEqual(invalid);
    expect(await pinned({ url: "ftp://pinned.invalid/", init: { address: "127.0.0.1" } })).toEqual(invalid);
    expect(await pinned({ url: "not a url", init: { address: "127.0.0.1" } })).toEqual(invalid);
  });

  it("connects to an IPv6 address, and never reuses a connection pinned elsewhere", async (ctx) => {
    if (http6 === undefined || dualStack === undefined) return ctx.skip("this machine cannot listen on ::1");
    expect(arrived(await pinned({ url: `http://pinned.invalid:${http6}/echo`, init: { address: "::1" } }))).toMatchObject({
      host: `pinned.invalid:${http6}`,
      remote: "::1",
    });
    // The same host:port twice, pinned to two addresses: a pooled socket would carry both to the first.
    const url = `http://pinned.invalid:${dualStack}/echo`;
    expect(arrived(await pinned({ url, init: { address: "127.0.0.1" } }))).toMatchObject({ remote: "::ffff:127.0.0.1" });
    expect(arrived(await pinned({ url, init: { address: "[::1]" } }))).toMatchObject({ remote: "::1" });
  });

  it("speaks https with the URL's hostname as SNI and certificate name, and refuses a certificate for another name", async () => {
    const report = await pinned({ url: `https://pinned.invalid:${https4}/echo`, init: { address: "127.0.0.1", ca } });
    expect(report).toMatchObject({ status: 200 });
    expect(arrived(report)).toMatchObject({ host: `pinned.invalid:${https4}`, servername: "pinned.invalid", remote: "127.0.0.1" });
    // The same server, reached as another name: its certificate does not cover it.
    expect(await pinned({ url: `https://other.invalid:${https4}/echo`, init: { address: "127.0.0.1", ca } })).toEqual({
      error: { name: "RuntimeError", code: "OTHER" },
    });
    // Without the CA the certificate is just self-signed.
    expect(await pinned({ url: `https://pinned.invalid:${https4}/echo`, init: { address: "127.0.0.1" } })).toEqual({
      error: { name: "RuntimeError", code: "OTHER" },
    });
  });
});
