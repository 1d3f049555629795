// The bridge's remote-access wiring, kept out of src/bridge.ts: the read-only tool view for
// mcp:read tokens, the hosts and origins a remote bind allows, the TLS files, and the fetcher of
// OAuth client metadata documents through the SSRF-safe HTTP client.
import { BridgeError, errorMessage } from "./errors.ts";
import { createHttpClient } from "./capabilities/http/http-client.ts";
import type { RemoteAccessConfig } from "./config/remote.ts";
import type { Runtime } from "./ports/runtime.ts";
import { isLoopbackHostname } from "./security/auth/host-origin.ts";
import type { FetchDocument } from "./security/auth/oauth/client-metadata.ts";
import type { Toolset } from "./tools/platform/toolset.ts";

/** The toolsets with their read-only tools only, for tokens with only mcp:read. */
export function readOnly(toolsets: readonly Toolset[]): Toolset[] {
  return toolsets.flatMap((t) => {
    const tools = t.tools.filter((tool) => tool.annotations.readOnlyHint === true);
    return tools.length > 0 ? [{ ...t, tools }] : [];
  });
}

export function urlHost(bind: string): string {
  return bind.includes(":") ? `[${bind}]` : bind;
}

/** Hosts and browser origins besides loopback: a specific bind address, the issuer's host, --cors-origin. */
export function remoteHostPolicy(bind: string, remote: RemoteAccessConfig): { extraHosts: string[]; extraOrigins: string[] } {
  const hosts = isLoopbackHostname(bind) || bind === "0.0.0.0" || bind === "::" ? [] : [bind];
  if (remote.issuerUrl !== undefined) hosts.push(new URL(remote.issuerUrl).hostname);
  return { extraHosts: hosts, extraOrigins: [...remote.corsOrigins] };
}

export async function readTls(runtime: Runtime, files: { certFile: string; keyFile: string }): Promise<{ cert: string; key: string }> {
  const read = (path: string, what: string) =>
    runtime.fs.readTextFile(path).catch((err: unknown) => {
      throw new BridgeError("config_invalid", `--tls-${what} ${path}: ${errorMessage(err)}`, { cause: err });
    });
  return { cert: await read(files.certFile, "cert"), key: await read(files.keyFile, "key") };
}

/** Client ID Metadata Documents come through the SSRF-safe client: public addresses only unless allowed, no redirects. */
export function documentFetcher(runtime: Runtime, remote: RemoteAccessConfig): FetchDocument {
  return async (url, opts) => {
    const client = createHttpClient({ runtime, allowPrivate: remote.allowPrivateClientMetadata }, AbortSignal.timeout(opts.timeoutMs));
    const answer = await client.request(url, {
      timeoutMs: opts.timeoutMs,
      maxBytes: opts.maxBytes,
      maxRedirects: 0,
      headers: { accept: "application/json" },
    });
    return { status: answer.status, headers: answer.headers, text: answer.text, truncated: answer.truncated };
  };
}
