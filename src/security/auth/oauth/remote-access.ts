// Remote access as one object: the discovery documents, the resource guard for /mcp, and the
// authorization server, which is the bridge itself unless an existing identity provider issues the
// tokens (then the bridge only verifies them, and its /oauth endpoints do not exist).
import type { Fs } from "../../../ports/fs.ts";
import { openAuthorizationServer, type AuthorizationServerOptions } from "./authorization-server.ts";
import type { FetchDocument } from "./client-metadata.ts";
import { identityProviderVerifier, type IdentityProviderOptions } from "./identity-provider.ts";
import { endpointsOf, type Endpoints } from "./metadata.ts";
import { ResourceGuard } from "./resource-guard.ts";
import type { ServerContext } from "./server-context.ts";

export interface RemoteAccess {
  endpoints: Endpoints;
  /** The issuer URL's path ("" or "/prefix"): requests may come with it or with a proxy having taken it off. */
  prefix: string;
  guard: ResourceGuard;
  /** The issuer the protected resource metadata names. */
  authorizationServer: string;
  /** The bridge's own authorization server; undefined when an identity provider issues the tokens. */
  server: ServerContext | undefined;
}

export interface RemoteAccessOptions {
  fs: Fs;
  stateRoot: string;
  /** The bridge's public URL: https://host[:port][/prefix]. */
  issuer: string;
  ownerToken: string;
  tokenTtlSeconds: number;
  fetchDocument: FetchDocument;
  identityProvider?: Omit<IdentityProviderOptions, "now">;
  limits?: AuthorizationServerOptions["limits"];
  now?: () => number;
  log?: ServerContext["log"];
}

export async function openRemoteAccess(opts: RemoteAccessOptions): Promise<RemoteAccess> {
  const endpoints = endpointsOf(opts.issuer);
  const prefix = new URL(opts.issuer).pathname.replace(/\/+$/, "");
  if (opts.identityProvider !== undefined) {
    const verifier = identityProviderVerifier({ ...opts.identityProvider, ...(opts.now === undefined ? {} : { now: opts.now }) });
    const guard = new ResourceGuard({ staticToken: opts.ownerToken, verifier, resourceMetadataUrl: endpoints.resourceMetadata });
    return { endpoints, prefix, guard, authorizationServer: opts.identityProvider.issuer, server: undefined };
  }
  const server = await openAuthorizationServer({ ...opts, endpoints });
  const guard = new ResourceGuard({
    staticToken: opts.ownerToken,
    verifier: server.tokens,
    resourceMetadataUrl: endpoints.resourceMetadata,
  });
  return { endpoints, prefix, guard, authorizationServer: endpoints.issuer, server };
}
