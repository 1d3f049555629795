// ctx.http: the bridge's only way to reach the network on the user's behalf. Every hop, redirects
// included, goes through the SSRF check (src/security/network/ssrf.ts) and connects to the address that
// was checked (Runtime.fetchPinned); the body is capped; credentials never follow a redirect to
// another origin: not the three the Fetch standard names, and no header whose name or value looks
// like one by the rule the command environment uses (X-Api-Key, Private-Token, X-Auth-Token, a
// "Bearer ..." under any name), since an API's own key header is as much a credential.
import { ToolError, errorMessage, fsErrorCode } from "../../errors.ts";
import type { Runtime } from "../../ports/runtime.ts";
import { looksSecretName, looksSecretValue } from "../../security/commands/secret-names.ts";
import { checkTarget } from "../../security/network/ssrf.ts";
import { readBody } from "./read-body.ts";

/** sendHttpRequest's default cap on a response body, as in the original bridge. */
export const DEFAULT_MAX_RESPONSE_BYTES = 50 * 1024;
export const MAX_REDIRECTS = 5;

interface HttpRequest {
  method?: string;
  headers?: Readonly<Record<string, string>>;
  body?: string;
  timeoutMs: number;
  /** Body bytes kept; the rest is dropped and marked (default 50 KB). */
  maxBytes?: number;
  /** Hops followed (each checked again); 0 returns a 3xx as it is. */
  maxRedirects?: number;
}

export interface HttpResponse {
  status: number;
  statusText: string;
  headers: [string, string][];
  /** Undefined for a binary body. */
  text: string | undefined;
  bytes: number;
  truncated: boolean;
  /** The URL that answered, after redirects. */
  url: string;
  /** The IP address it was reached at. */
  address: string;
  redirects: { status: number; location: string }[];
  /** Credential headers not sent on after a redirect to another origin. */
  droppedHeaders: string[];
  durationMs: number;
}

export interface HttpClient {
  request(url: string, req: HttpRequest): Promise<HttpResponse>;
}

interface HttpDeps {
  runtime: Pick<Runtime, "resolveHost" | "fetchPinned">;
  allowPrivate: boolean;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** Dropped when a redirect leaves the origin (Fetch standard, "HTTP-redirect fetch"), with the rest of credentialHeader. */
const CREDENTIAL_HEADERS = ["authorization", "cookie", "proxy-authorization"];

function credentialHeader(name: string, value: string): boolean {
  return CREDENTIAL_HEADERS.includes(name.toLowerCase()) || looksSecretName(name) || looksSecretValue(value);
}

export function createHttpClient(deps: HttpDeps, signal: AbortSignal): HttpClient {
  return {
    async request(url, req) {
      const started = performance.now();
      const deadline = started + req.timeoutMs;
      const redirects: HttpResponse["redirects"] = [];
      const dropped = new Set<string>();
      let hop = { url, method: (req.method ?? "GET").toUpperCase(), headers: { ...req.headers }, body: req.body };
      for (;;) {
        const target = await checkTarget(hop.url, { resolveHost: deps.runtime.resolveHost, allowPrivate: deps.allowPrivate });
        const response = await send(deps.runtime, target, hop, {
          signal,
          timeoutMs: Math.max(1, Math.round(deadline - performance.now())),
        });
        const location = response.headers.get("location");
        if (REDIRECTS.has(response.status) && location !== null && redirects.length < (req.maxRedirects ?? MAX_REDIRECTS)) {
          await response.body?.cancel().catch(() => {});
          redirects.push({ status: response.status, location });
          const next = nextHop(hop, target.url, { status: response.status, location });
          for (const name of next.dropped) dropped.add(name);
          hop = next.hop;
          continue;
        }
        const body = await readBody(response, req.maxBytes ?? DEFAULT_MAX_RESPONSE_BYTES).catch((err: unknown) => {
          throw networkError(err, target.url.origin);
        });
        return {
          status: response.status,
          statusText: response.statusText,
          headers: [...response.headers.entries()],
          ...body,
          url: target.url.href,
          address: target.address,
          redirects,
          droppedHeaders: [...dropped],
          durationMs: Math.round(performance.now() - started),
        };
      }
    },
  };
}

interface Hop {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string | undefined;
}

async function send(
  runtime: HttpDeps["runtime"],
  target: { url: URL; address: string },
  hop: Hop,
  opts: { signal: AbortSignal; timeoutMs: number },
): Promise<Response> {
  try {
    return await runtime.fetchPinned(target.url.href, {
      address: target.address,
      method: hop.method,
      headers: hop.headers,
      ...(hop.body === undefined ? {} : { body: hop.body }),
      signal: opts.signal,
      timeoutMs: opts.timeoutMs,
    });
  } catch (err) {
    throw networkError(err, target.url.origin);
  }
}

/** The request a redirect asks for: 303 (and 301/302 after a POST) becomes a GET without a body. */
function nextHop(hop: Hop, from: URL, redirect: { status: number; location: string }): { hop: Hop; dropped: string[] } {
  const { status, location } = redirect;
  const next = URL.canParse(location, from) ? new URL(location, from) : undefined;
  if (next === undefined)
    throw new ToolError("request_failed", `${from.origin} redirected to an unusable Location: ${location.slice(0, 200)}`, {
      suggestion: "Call the final URL directly.",
    });
  const toGet = (status === 303 && hop.method !== "HEAD") || ((status === 301 || status === 302) && hop.method === "POST");
  const headers = { ...hop.headers };
  const dropped: string[] = [];
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (next.origin !== from.origin && credentialHeader(name, value)) {
      delete headers[name];
      dropped.push(name);
    } else if (toGet && (lower === "content-type" || lower === "content-length")) delete headers[name];
  }
  return { hop: { url: next.href, method: toGet ? "GET" : hop.method, headers, body: toGet ? undefined : hop.body }, dropped };
}

function networkError(err: unknown, origin: string): ToolError {
  if (err instanceof ToolError) return err;
  const code = fsErrorCode(err);
  if (code === "ETIMEDOUT")
    return new ToolError("timeout", `${origin} did not answer in time`, {
      suggestion: "Raise timeoutMs, or check that the service is up.",
      cause: err,
    });
  if (code === "ECANCELED")
    return new ToolError("cancelled", `The request to ${origin} was cancelled`, {
      suggestion: "Send it again if the answer is still needed.",
      cause: err,
    });
  return new ToolError("request_failed", `${origin}: ${errorMessage(err)}`, {
    suggestion: "Check the URL and that the service is reachable from the bridge's machine.",
    cause: err,
  });
}
