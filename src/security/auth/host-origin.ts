// DNS-rebinding defence: a web page on evil.example that rebinds its name to 127.0.0.1 still
// sends `Host: evil.example` and its own `Origin`, so both are checked on every request.
const LOOPBACK_NAMES = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);

/** The hostname of a Host header (no port, lowercased); undefined if malformed. */
function hostnameOf(hostHeader: string | undefined | null): string | undefined {
  if (!hostHeader) return undefined;
  const host = hostHeader.trim().toLowerCase();
  const match = /^(\[[0-9a-f:.]+\]|[^:[\]]+)(?::(\d{1,5}))?$/.exec(host);
  return match?.[1];
}

export function isLoopbackHostname(hostname: string): boolean {
  return LOOPBACK_NAMES.has(hostname) || /^127(?:\.\d{1,3}){3}$/.test(hostname);
}

export interface HostPolicy {
  /** Extra hostnames accepted besides loopback (e.g. a non-loopback --bind address). */
  extraHosts: readonly string[];
  /** Extra browser origins accepted besides loopback pages: the issuer's own (its approval form) and --cors-origin. */
  extraOrigins?: readonly string[];
}

export function isAllowedHost(hostHeader: string | undefined | null, policy: HostPolicy): boolean {
  const hostname = hostnameOf(hostHeader);
  if (!hostname) return false;
  return isLoopbackHostname(hostname) || policy.extraHosts.includes(hostname);
}

/** HTTP: no Origin (non-browser clients), a loopback page's Origin, or one the policy names. */
export function isAllowedHttpOrigin(origin: string | undefined | null, policy?: HostPolicy): boolean {
  if (origin === undefined || origin === null) return true;
  if (policy?.extraOrigins?.includes(origin) === true) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  return (url.protocol === "http:" || url.protocol === "https:") && isLoopbackHostname(url.hostname.toLowerCase());
}
