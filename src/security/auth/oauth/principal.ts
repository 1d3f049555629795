// Who a request to /mcp comes from, once its bearer token checked out.
import type { Access } from "./scopes.ts";

export interface Principal {
  /** The bridge token (the owner, all access), or an OAuth access token. */
  kind: "owner" | "oauth";
  access: Access;
  scopes: readonly string[];
  clientId?: string;
  /** The bridge's own grant the token belongs to (absent for an identity provider's tokens). */
  grantId?: string;
}

/** An access token that does not check out; the description goes into WWW-Authenticate. */
export class InvalidToken extends Error {
  constructor(description: string) {
    super(description);
    this.name = this.constructor.name;
  }
}

export interface TokenVerifier {
  verify(token: string): Promise<Principal>;
}
