// The SSRF defence of sendHttpRequest, in three layers (seed ARCHITECTURE.md, "Auth & Security"):
//   1. lexical: the URL's host, read as the OS would (every IPv4 and IPv6 spelling, IPv4 inside
//      IPv6 unwrapped), must not be private, loopback, link-local, metadata or reserved;
//   2. DNS: a name is resolved first and every address it resolves to must pass the same check,
//      so a name pointing at 127.0.0.1 or 169.254.169.254 is refused;
//   3. pinning: the request connects to exactly the address that was checked (Runtime.fetchPinned
//      does no DNS of its own), so a rebinding answer given later cannot switch it.
// Redirects come back unfollowed from fetchPinned; src/capabilities/http/http-client.ts sends every hop through
// here again. --allow-private-http turns the block off (layers 2 and 3 still resolve and pin).
// runCommand's tools connect on their own (npm --registry, git clone, go get): hostBlockReason
// gives them layers 1 and 2; the tool does its own lookup afterwards, so layer 3 is theirs.
import { errorMessage, ToolError } from "../../errors.ts";
import type { Runtime } from "../../ports/runtime.ts";
import { lexicalBlockReason } from "./blocked-addresses.ts";
import { parseIpAddress } from "./ip-address.ts";

interface CheckedTarget {
  url: URL;
  /** The IP literal to connect to (without brackets). */
  address: string;
}

interface SsrfOptions {
  resolveHost: Runtime["resolveHost"];
  /** --allow-private-http: private and loopback addresses are allowed too. */
  allowPrivate: boolean;
}

const BLOCKED_SUGGESTION =
  "The bridge only reaches public addresses (SSRF defence). To call a service on this machine or your network, the user must restart the bridge with --allow-private-http.";

/** Parses and checks a URL; throws ToolError("address_blocked" | "invalid_url" | "request_failed"). */
export async function checkTarget(raw: string, opts: SsrfOptions): Promise<CheckedTarget> {
  const url = parseHttpUrl(raw);
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  if (!opts.allowPrivate) refuseIfBlocked(host, url);
  if (parseIpAddress(host) !== undefined) return { url, address: host };
  const addresses = await resolve(host, opts.resolveHost);
  if (!opts.allowPrivate) for (const address of addresses) refuseIfBlocked(address, url, host);
  // Checked just above; the connection goes to this one and nowhere else.
  const address = addresses[0] ?? "";
  return { url, address };
}

/**
 * Why a host an external tool will connect to must be refused (its spelling, or an address it
 * resolves to), or undefined. A name that does not resolve here is let through: the tool cannot
 * reach it directly either, and may be meant to go through the proxy it is configured with.
 */
export async function hostBlockReason(host: string, opts: Pick<SsrfOptions, "resolveHost">): Promise<string | undefined> {
  const bare = host.replace(/^\[(.*)\]$/, "$1");
  const lexical = lexicalBlockReason(bare);
  if (lexical !== undefined) return lexical;
  if (parseIpAddress(bare) !== undefined) return undefined;
  const addresses = await opts.resolveHost(bare).catch((): string[] => []);
  for (const address of addresses) {
    if (parseIpAddress(address) === undefined) return `${bare} resolves to something that is not an IP address (${address.slice(0, 80)})`;
    const why = lexicalBlockReason(address);
    if (why !== undefined) return `${bare} resolves to ${address}: ${why}`;
  }
  return undefined;
}

function parseHttpUrl(raw: string): URL {
  const url = URL.canParse(raw) ? new URL(raw) : undefined;
  if (url === undefined || (url.protocol !== "http:" && url.protocol !== "https:")) {
    throw new ToolError("invalid_url", `Not an http(s) URL: ${raw.slice(0, 200)}`, {
      suggestion: "Pass an absolute URL starting with http:// or https://.",
    });
  }
  if (url.username !== "" || url.password !== "") {
    throw new ToolError("invalid_url", "Credentials in the URL are not sent", {
      suggestion: "Remove user:password@ from the URL and send an Authorization header instead.",
    });
  }
  return url;
}

function refuseIfBlocked(address: string, url: URL, viaName?: string): void {
  const why = lexicalBlockReason(address);
  if (why === undefined) return;
  const through = viaName === undefined ? "" : ` (${viaName} resolves to ${address})`;
  throw new ToolError("address_blocked", `Refused ${url.origin}${through}: ${why}`, { suggestion: BLOCKED_SUGGESTION });
}

async function resolve(host: string, resolveHost: Runtime["resolveHost"]): Promise<string[]> {
  let addresses: string[];
  try {
    addresses = await resolveHost(host);
  } catch (err) {
    // The resolver's own words (EAI_AGAIN: try again; ENOTFOUND: no such name) say which it is.
    throw new ToolError("request_failed", `${host} could not be resolved (${errorMessage(err)})`, {
      suggestion: "Check the host name; the bridge's machine must be able to resolve it.",
      cause: err,
    });
  }
  if (addresses.length === 0)
    throw new ToolError("request_failed", `${host} resolves to no address`, { suggestion: "Check the host name." });
  // A resolver answer that is not an IP literal would be resolved again by whoever connects.
  const bad = addresses.find((a) => parseIpAddress(a) === undefined);
  if (bad !== undefined)
    throw new ToolError("request_failed", `${host} resolved to something that is not an IP address: ${bad}`, {
      suggestion: "Check the machine's resolver.",
    });
  return addresses;
}
