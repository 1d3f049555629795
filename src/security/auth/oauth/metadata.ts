// The discovery documents: protected resource metadata (RFC 9728) for /mcp, and the authorization
// server's metadata (RFC 8414) at both paths clients try, the OAuth one and OpenID Connect
// discovery's. With an issuer path prefix (https://host/prefix) each is answered at the
// path-inserted form (/.well-known/<name>/prefix[/mcp]) and at the plain one.
import { SUPPORTED_SCOPES } from "./scopes.ts";

export interface Endpoints {
  issuer: string;
  /** The protected resource: `<issuer>/mcp` (RFC 8707's canonical URI of this MCP server). */
  resource: string;
  authorization: string;
  token: string;
  registration: string;
  revocation: string;
  jwks: string;
  /** Where the resource's metadata is, in the path-inserted form RFC 9728 3.1 gives. */
  resourceMetadata: string;
}

export function endpointsOf(issuer: string): Endpoints {
  const url = new URL(issuer);
  const prefix = url.pathname.replace(/\/+$/, "");
  return {
    issuer,
    resource: `${issuer}/mcp`,
    authorization: `${issuer}/oauth/authorize`,
    token: `${issuer}/oauth/token`,
    registration: `${issuer}/oauth/register`,
    revocation: `${issuer}/oauth/revoke`,
    jwks: `${issuer}/oauth/jwks`,
    resourceMetadata: `${url.origin}/.well-known/oauth-protected-resource${prefix}/mcp`,
  };
}

export type WellKnown = "protected-resource" | "authorization-server" | "openid-configuration";

/** Which document a /.well-known path asks for, given the issuer's path prefix ("" or "/prefix"). */
export function wellKnownAt(path: string, prefix: string): WellKnown | undefined {
  const suffixes = (forResource: boolean) => (forResource ? ["", "/mcp", `${prefix}/mcp`] : ["", prefix]);
  const names: [string, WellKnown, boolean][] = [
    ["/.well-known/oauth-protected-resource", "protected-resource", true],
    ["/.well-known/oauth-authorization-server", "authorization-server", false],
    ["/.well-known/openid-configuration", "openid-configuration", false],
  ];
  for (const [base, kind, forResource] of names) {
    if (suffixes(forResource).some((suffix) => path === `${base}${suffix}`)) return kind;
  }
  return undefined;
}

export function protectedResourceMetadata(endpoints: Endpoints, authorizationServer: string): Record<string, unknown> {
  return {
    resource: endpoints.resource,
    authorization_servers: [authorizationServer],
    scopes_supported: SUPPORTED_SCOPES,
    bearer_methods_supported: ["header"],
    resource_name: "claude-ide-bridge",
  };
}

export function authorizationServerMetadata(endpoints: Endpoints): Record<string, unknown> {
  return {
    issuer: endpoints.issuer,
    authorization_endpoint: endpoints.authorization,
    token_endpoint: endpoints.token,
    registration_endpoint: endpoints.registration,
    revocation_endpoint: endpoints.revocation,
    jwks_uri: endpoints.jwks,
    scopes_supported: SUPPORTED_SCOPES,
    response_types_supported: ["code"],
    response_modes_supported: ["query"],
    grant_types_supported: ["authorization_code", "refresh_token"],
    code_challenge_methods_supported: ["S256"],
    token_endpoint_auth_methods_supported: ["none"],
    revocation_endpoint_auth_methods_supported: ["none"],
    client_id_metadata_document_supported: true,
    authorization_response_iss_parameter_supported: true,
  };
}

/**
 * The same metadata at the OpenID discovery path. OpenID Provider Metadata requires the two members
 * added here; no ID token is ever issued, since `openid` is not among the scopes.
 */
export function openIdConfiguration(endpoints: Endpoints): Record<string, unknown> {
  return {
    ...authorizationServerMetadata(endpoints),
    subject_types_supported: ["public"],
    id_token_signing_alg_values_supported: ["ES256"],
  };
}
