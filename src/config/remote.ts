// Remote access: the flags that let clients beyond this machine in (OAuth 2.1 over TLS), checked as
// a whole. Without --tls-cert/--tls-key or --issuer-url nothing of it is exposed, and a bind
// address that is not loopback is refused: the bridge would otherwise serve plain HTTP, with the
// static token as the only credential, to the network.
import * as v from "valibot";
import { BridgeError } from "../errors.ts";
import { isAbsolute, join, normalize } from "../lib/paths/posix-path.ts";
import { isLoopbackHostname } from "../security/auth/host-origin.ts";

const path = v.pipe(v.string(), v.minLength(1), v.maxLength(4096));
const url = v.pipe(v.string(), v.minLength(1), v.maxLength(2048));

/** The config-file keys of remote access (camelCase flags), merged into ConfigFileSchema. */
export const REMOTE_FILE_KEYS = {
  issuerUrl: v.optional(url),
  tlsCert: v.optional(path),
  tlsKey: v.optional(path),
  oauthJwksUrl: v.optional(url),
  oauthIssuer: v.optional(url),
  oauthAudience: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(2048))),
  oauthTokenTtl: v.optional(v.pipe(v.number(), v.integer(), v.minValue(60), v.maxValue(86_400))),
  oauthAllowPrivateMetadata: v.optional(v.boolean()),
  corsOrigins: v.optional(v.array(url)),
};

type RemoteFileKeys = { [K in keyof typeof REMOTE_FILE_KEYS]?: v.InferOutput<(typeof REMOTE_FILE_KEYS)[K]> };

export interface RemoteAccessConfig {
  /**
   * The bridge's public https origin, with an optional path prefix and no trailing slash: the
   * OAuth issuer, and `<issuerUrl>/mcp` is the protected resource. Undefined with --tls-cert alone
   * until the port is known (the bridge derives it from the bind address).
   */
  issuerUrl: string | undefined;
  /** Absolute paths of the PEM certificate chain and key: the bridge serves HTTPS itself. */
  tls: { certFile: string; keyFile: string } | undefined;
  /** Tokens come from an existing identity provider instead of the bridge's own authorization server. */
  identityProvider: { jwksUrl: string; issuer: string; audience: string } | undefined;
  /** Lifetime of the access tokens the bridge issues, in seconds. */
  tokenTtlSeconds: number;
  /** Browser origins allowed to call the bridge (CORS); none by default. */
  corsOrigins: string[];
  /** Client ID Metadata Documents may be fetched from private and loopback addresses (tests, intranets). */
  allowPrivateClientMetadata: boolean;
}

export const DEFAULT_REMOTE: RemoteAccessConfig = {
  issuerUrl: undefined,
  tls: undefined,
  identityProvider: undefined,
  tokenTtlSeconds: 3600,
  corsOrigins: [],
  allowPrivateClientMetadata: false,
};

/** Whether remote access is on: the bridge is then an OAuth protected resource (and, without an IdP, the authorization server). */
export function remoteEnabled(remote: RemoteAccessConfig): boolean {
  return remote.tls !== undefined || remote.issuerUrl !== undefined;
}

/** Builds and checks the remote-access part of the config; throws BridgeError("config_invalid"). */
export function resolveRemote(merged: RemoteFileKeys, opts: { bind: string; cwd: string }): RemoteAccessConfig {
  if ((merged.tlsCert === undefined) !== (merged.tlsKey === undefined))
    throw invalid("--tls-cert and --tls-key go together: give the certificate chain and its private key (PEM files)");
  const tls =
    merged.tlsCert !== undefined && merged.tlsKey !== undefined
      ? { certFile: absolute(merged.tlsCert, opts.cwd), keyFile: absolute(merged.tlsKey, opts.cwd) }
      : undefined;
  const issuerUrl = merged.issuerUrl === undefined ? undefined : publicUrl(merged.issuerUrl);
  const remote: RemoteAccessConfig = {
    issuerUrl,
    tls,
    identityProvider: identityProvider(merged),
    tokenTtlSeconds: merged.oauthTokenTtl ?? DEFAULT_REMOTE.tokenTtlSeconds,
    corsOrigins: (merged.corsOrigins ?? []).map(origin),
    allowPrivateClientMetadata: merged.oauthAllowPrivateMetadata ?? false,
  };
  const on = remoteEnabled(remote);
  if (!on && !isLoopbackHostname(opts.bind.toLowerCase()) && opts.bind.toLowerCase() !== "localhost")
    throw invalid(
      `--bind ${opts.bind} would serve the bridge to the network over plain HTTP, with the bridge token as the only credential. ` +
        "Serve TLS with OAuth (--tls-cert <pem> --tls-key <pem>), or put it behind a TLS reverse proxy (--issuer-url https://host[/prefix]); else keep the default --bind 127.0.0.1",
    );
  if (!on && remote.identityProvider !== undefined)
    throw invalid("--oauth-jwks-url, --oauth-issuer and --oauth-audience need remote access: add --tls-cert/--tls-key or --issuer-url");
  if (tls !== undefined && issuerUrl === undefined && ["0.0.0.0", "::", "[::]"].includes(opts.bind))
    throw invalid(
      `with --tls-cert and --bind ${opts.bind}, clients reach the bridge by a name the bridge cannot guess: give it with --issuer-url https://<that name>:<port>`,
    );
  return remote;
}

function identityProvider(merged: RemoteFileKeys): RemoteAccessConfig["identityProvider"] {
  const { oauthJwksUrl: jwksUrl, oauthIssuer: issuer, oauthAudience: audience } = merged;
  const given = [jwksUrl, issuer, audience].filter((x) => x !== undefined).length;
  if (given === 0) return undefined;
  if (jwksUrl === undefined || issuer === undefined || audience === undefined)
    throw invalid("an existing identity provider needs all three of --oauth-jwks-url, --oauth-issuer and --oauth-audience");
  const jwks = parsed(jwksUrl, "--oauth-jwks-url");
  if (jwks.protocol !== "https:" && !(jwks.protocol === "http:" && isLoopbackHostname(jwks.hostname.replace(/^\[|\]$/g, ""))))
    throw invalid(`--oauth-jwks-url must be https (http only on a loopback address), got ${jwksUrl}`);
  parsed(issuer, "--oauth-issuer");
  return { jwksUrl: jwks.href, issuer, audience };
}

/** An https URL with no query, fragment or credentials; the trailing slash dropped. */
function publicUrl(raw: string): string {
  const url = parsed(raw, "--issuer-url");
  if (url.protocol !== "https:")
    throw invalid(`--issuer-url must be https (OAuth 2.1 requires TLS; the proxy in front terminates it), got ${raw}`);
  if (url.search !== "" || url.hash !== "" || url.username !== "" || url.password !== "")
    throw invalid(`--issuer-url takes an origin and an optional path prefix, no query, fragment or credentials: ${raw}`);
  return `${url.origin}${url.pathname.replace(/\/+$/, "")}`;
}

function origin(raw: string): string {
  const url = URL.canParse(raw) ? new URL(raw) : undefined;
  if (url === undefined || (url.protocol !== "https:" && url.protocol !== "http:") || url.origin !== raw.replace(/\/$/, ""))
    throw invalid(`--cors-origin takes a browser origin such as https://app.example.com (scheme, host, port; no path), got ${raw}`);
  return url.origin;
}

function parsed(raw: string, flag: string): URL {
  if (!URL.canParse(raw)) throw invalid(`${flag} is not a URL: ${raw}`);
  return new URL(raw);
}

function absolute(file: string, cwd: string): string {
  return isAbsolute(file) ? normalize(file) : join(cwd, file);
}

function invalid(message: string): BridgeError {
  return new BridgeError("config_invalid", message);
}
