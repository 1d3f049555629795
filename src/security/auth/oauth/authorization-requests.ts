// What lives between the authorization request and the token request, in memory only: approvals
// waiting for the owner (10 minutes) and authorization codes (single use, 5 minutes, bound to the
// client, redirect URI, PKCE challenge, resource and scopes). Both are capped, oldest dropped first.
import type { OAuthClient } from "./oauth-client.ts";
import { randomSecret } from "./secrets.ts";

const PENDING_TTL_MS = 10 * 60_000;
export const CODE_TTL_MS = 5 * 60_000;
const MAX_PENDING = 100;
const MAX_CODES = 200;

export interface AuthorizationRequest {
  client: OAuthClient;
  redirectUri: string;
  state: string | undefined;
  challenge: string;
  resource: string;
  scopes: string[];
}

export interface PendingApproval extends AuthorizationRequest {
  id: string;
  /** Bound to the browser by a cookie: the approval form must come back with both. */
  csrf: string;
  expiresAt: number;
  /** Wrong owner credentials given so far; the request is dropped after a few. */
  failures: number;
}

interface IssuedCode extends AuthorizationRequest {
  expiresAt: number;
  /** Set once exchanged: the grant it created, revoked if the code comes again. */
  exchangedFor?: string;
}

export type CodeLookup =
  | { kind: "fresh"; code: IssuedCode }
  | { kind: "replayed"; grantId: string | undefined }
  | { kind: "expired" }
  | { kind: "unknown" };

export class AuthorizationRequests {
  private readonly pending = new Map<string, PendingApproval>();
  private readonly codes = new Map<string, IssuedCode>();

  constructor(private readonly now: () => number = Date.now) {}

  addPending(request: AuthorizationRequest): PendingApproval {
    this.sweep();
    dropOldest(this.pending, MAX_PENDING);
    const approval: PendingApproval = {
      ...request,
      id: randomSecret(16),
      csrf: randomSecret(),
      expiresAt: this.now() + PENDING_TTL_MS,
      failures: 0,
    };
    this.pending.set(approval.id, approval);
    return approval;
  }

  getPending(id: string | undefined): PendingApproval | undefined {
    const found = id === undefined ? undefined : this.pending.get(id);
    if (found === undefined || found.expiresAt <= this.now()) return undefined;
    return found;
  }

  dropPending(id: string): void {
    this.pending.delete(id);
  }

  /** Turns an approved request into a code. */
  issueCode(request: AuthorizationRequest): string {
    this.sweep();
    dropOldest(this.codes, MAX_CODES);
    const code = randomSecret();
    const { client, redirectUri, state, challenge, resource, scopes } = request;
    this.codes.set(code, { client, redirectUri, state, challenge, resource, scopes, expiresAt: this.now() + CODE_TTL_MS });
    return code;
  }

  /**
   * Looks a code up for exchange. A fresh code is marked used at once, so a second exchange, even a
   * concurrent one, sees it as replayed.
   */
  take(code: string | undefined): CodeLookup {
    const found = code === undefined ? undefined : this.codes.get(code);
    if (found === undefined) return { kind: "unknown" };
    if (found.exchangedFor !== undefined) return { kind: "replayed", grantId: found.exchangedFor === "" ? undefined : found.exchangedFor };
    if (found.expiresAt <= this.now()) return { kind: "expired" };
    // Kept (until the sweep) to recognise a replay; the grant id follows once it exists.
    found.exchangedFor = "";
    return { kind: "fresh", code: found };
  }

  /** Records the grant a code created, so a replay can revoke it. */
  exchanged(code: string, grantId: string): void {
    const found = this.codes.get(code);
    if (found !== undefined) found.exchangedFor = grantId;
  }

  private sweep(): void {
    const now = this.now();
    for (const [id, p] of this.pending) if (p.expiresAt <= now) this.pending.delete(id);
    for (const [code, c] of this.codes) if (c.expiresAt + CODE_TTL_MS <= now) this.codes.delete(code);
  }
}

function dropOldest<T>(map: Map<string, T>, max: number): void {
  while (map.size >= max) {
    const oldest = map.keys().next();
    if (oldest.done === true) return;
    map.delete(oldest.value);
  }
}
