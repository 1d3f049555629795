// Runtime.fetchPinned (src/ports/net.ts) on node:http and node:https, which Node, Bun and Deno run
// alike (the contract suite checks each). It connects to the address literal itself rather than to
// the hostname with a pinning `lookup`: all three runtimes honour `lookup`, but a runtime that one
// day did not would quietly resolve the name, the very thing this must never do; with a literal,
// nothing can. The hostname is then given explicitly where it belongs: the Host header, SNI
// (`servername`) and the certificate check (`checkServerIdentity`).
import { request as httpRequest, type ClientRequest, type IncomingMessage, type RequestOptions } from "node:http";
import { request as httpsRequest } from "node:https";
import { isIP } from "node:net";
import { checkServerIdentity } from "node:tls";
import { RuntimeError } from "../../src/ports/errors.ts";
import type { PinnedFetchInit } from "../../src/ports/net.ts";
import { toRuntimeError } from "./errors.ts";
import { webBody } from "./web-body.ts";

/** Statuses whose Response must have a null body (Fetch standard, "null body status"). */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

export function fetchPinned(url: string, init: PinnedFetchInit): Promise<Response> {
  return new Promise((resolve, reject) => {
    const signal = init.signal;
    if (signal?.aborted === true) return reject(cancelled(signal));
    const req = send(url, init);
    let incoming: IncomingMessage | undefined;
    // After the headers, a failure belongs to the body being read.
    const fail = (err: RuntimeError) => (incoming ?? req).destroy(err);
    const timer = init.timeoutMs === undefined ? undefined : setTimeout(() => fail(timedOut(url, init.timeoutMs ?? 0)), init.timeoutMs);
    const onAbort = () => fail(cancelled(signal));
    signal?.addEventListener("abort", onAbort, { once: true });
    const settle = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    };
    req.on("error", (err) => {
      settle();
      reject(toRuntimeError(err));
    });
    req.once("response", (res) => {
      incoming = res;
      res.once("close", settle);
      try {
        resolve(toResponse(res, req.method));
      } catch (err) {
        res.destroy();
        reject(
          new RuntimeError("OTHER", `${url}: unusable response (${err instanceof Error ? err.message : String(err)})`, { cause: err }),
        );
      }
    });
    req.end(init.body);
  });
}

/** Starts the request; a URL or address that cannot be used throws EINVAL. */
function send(url: string, init: PinnedFetchInit): ClientRequest {
  const target = URL.canParse(url) ? new URL(url) : undefined;
  if (target === undefined || (target.protocol !== "http:" && target.protocol !== "https:"))
    throw new RuntimeError("EINVAL", `fetchPinned needs an http or https URL, not ${url}`);
  if (target.username !== "" || target.password !== "")
    throw new RuntimeError("EINVAL", `fetchPinned takes no credentials in the URL (${target.host})`);
  const address = init.address.replace(/^\[(.*)\]$/, "$1");
  if (isIP(address) === 0) throw new RuntimeError("EINVAL", `fetchPinned needs an IP address to connect to, not ${init.address}`);
  const https = target.protocol === "https:";
  const hostname = target.hostname.replace(/^\[(.*)\]$/, "$1");
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(init.headers ?? {})) if (name.toLowerCase() !== "host") headers[name] = value;
  headers.host = target.host;
  // Without a length Node sends a GET's body unframed, which the server reads as garbage.
  if (init.body !== undefined)
    headers["content-length"] = String((typeof init.body === "string" ? new TextEncoder().encode(init.body) : init.body).byteLength);
  const options: RequestOptions = {
    host: address,
    port: target.port === "" ? (https ? 443 : 80) : Number(target.port),
    path: `${target.pathname}${target.search}`,
    method: init.method ?? "GET",
    headers,
    // No pooling: a kept-alive socket to this host:port could be pinned to another address.
    agent: false,
  };
  if (!https) return httpRequest(options);
  return httpsRequest({
    ...options,
    // SNI carries names only (RFC 6066, section 3).
    ...(isIP(hostname) === 0 ? { servername: hostname } : {}),
    checkServerIdentity: (_host, cert) => checkServerIdentity(hostname, cert),
    ...(init.ca === undefined ? {} : { ca: init.ca }),
  });
}

function toResponse(res: IncomingMessage, method: string): Response {
  const headers = new Headers();
  for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) headers.append(res.rawHeaders[i] ?? "", res.rawHeaders[i + 1] ?? "");
  const status = res.statusCode ?? 0;
  const bodyless = NULL_BODY_STATUSES.has(status) || method.toUpperCase() === "HEAD";
  if (bodyless) res.resume();
  return new Response(bodyless ? null : webBody(res), { status, statusText: res.statusMessage ?? "", headers });
}

function cancelled(signal: AbortSignal | undefined): RuntimeError {
  return new RuntimeError("ECANCELED", "fetchPinned was aborted", { cause: signal?.reason });
}

function timedOut(url: string, ms: number): RuntimeError {
  return new RuntimeError("ETIMEDOUT", `${url}: no complete answer within ${ms} ms`);
}
