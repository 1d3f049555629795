// Redirect URIs of public clients: https, or http on a loopback host (a native app's callback,
// RFC 8252 7.3); never a fragment. A loopback callback matches on any port, since native apps pick
// a free one per attempt (RFC 8252 7.3); everything else matches exactly (OAuth 2.1 2.3.1).
import { isLoopbackHostname } from "../host-origin.ts";

export const MAX_REDIRECT_URIS = 10;
const MAX_URI_CHARS = 2000;

/** Why a redirect URI cannot be registered, or undefined when it can. */
export function redirectUriProblem(raw: unknown): string | undefined {
  if (typeof raw !== "string" || raw.length === 0) return "a redirect URI must be a non-empty string";
  if (raw.length > MAX_URI_CHARS) return `a redirect URI is at most ${MAX_URI_CHARS} characters`;
  const url = URL.canParse(raw) ? new URL(raw) : undefined;
  if (url === undefined) return `not an absolute URI: ${raw.slice(0, 200)}`;
  if (url.hash !== "" || raw.includes("#")) return `a redirect URI has no fragment: ${raw.slice(0, 200)}`;
  if (url.username !== "" || url.password !== "") return "a redirect URI carries no credentials";
  if (url.protocol === "https:") return undefined;
  if (url.protocol === "http:" && isLoopback(url)) return undefined;
  return `a redirect URI must be https, or http on a loopback host (localhost, 127.0.0.1, [::1]): ${raw.slice(0, 200)}`;
}

/** Whether `given` is one of the client's registered URIs (a loopback one on any port). */
export function redirectUriMatches(given: string, registered: readonly string[]): boolean {
  if (registered.includes(given)) return true;
  const url = URL.canParse(given) ? new URL(given) : undefined;
  if (url === undefined || url.protocol !== "http:" || !isLoopback(url)) return false;
  return registered.some((r) => {
    const known = URL.canParse(r) ? new URL(r) : undefined;
    return (
      known !== undefined &&
      known.protocol === "http:" &&
      known.hostname === url.hostname &&
      known.pathname === url.pathname &&
      known.search === url.search
    );
  });
}

function isLoopback(url: URL): boolean {
  return isLoopbackHostname(url.hostname.toLowerCase());
}
