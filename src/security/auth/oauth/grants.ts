// Grants: what the owner approved for one client, and the refresh-token family that carries it
// (persisted in grants.json). A refresh token is `<grant id>.<secret>`; only the secret's SHA-256
// is kept. Every refresh rotates it; presenting a rotated-out one means it was copied, so the whole
// grant is revoked (OAuth 2.1 4.3.1), and with it every access token it issued (they name the grant
// in `sid`, checked on each request with one map lookup).
import * as v from "valibot";
import { BridgeError } from "../../../errors.ts";
import { tokensEqual } from "../tokens.ts";
import type { OAuthClient } from "./oauth-client.ts";
import { OAuthError } from "./oauth-error.ts";
import { randomSecret, sha256Base64url } from "./secrets.ts";
import type { StateFiles } from "./state-files.ts";

const REFRESH_TTL_MS = 30 * 24 * 3_600_000;
const DEFAULT_MAX_GRANTS = 1000;
/** Rotated-out refresh tokens remembered per grant, to recognise a reuse. */
const USED_KEPT = 20;

const StoredGrant = v.object({
  id: v.string(),
  clientId: v.string(),
  clientName: v.optional(v.string()),
  scopes: v.array(v.string()),
  resource: v.string(),
  createdAt: v.number(),
  lastUsedAt: v.number(),
  refreshHash: v.string(),
  refreshExpiresAt: v.number(),
  usedHashes: v.array(v.string()),
  revokedAt: v.optional(v.number()),
  revokedReason: v.optional(v.string()),
});
export type Grant = v.InferOutput<typeof StoredGrant>;
const GrantsFile = v.object({ grants: v.array(StoredGrant) });

interface GrantStoreOptions {
  /** Access-token lifetime: a revoked grant is kept this long, after which none of its tokens can be valid. */
  accessTtlMs: number;
  refreshTtlMs?: number;
  maxGrants?: number;
  now?: () => number;
}

export class GrantStore {
  private readonly grants = new Map<string, Grant>();
  private readonly now: () => number;

  private constructor(
    private readonly files: StateFiles,
    private readonly opts: GrantStoreOptions,
  ) {
    this.now = opts.now ?? Date.now;
  }

  static async open(files: StateFiles, opts: GrantStoreOptions): Promise<GrantStore> {
    const store = new GrantStore(files, opts);
    const raw = await files.read("grants.json");
    if (raw !== undefined) {
      const parsed = v.safeParse(GrantsFile, raw);
      if (!parsed.success)
        throw new BridgeError("startup_failed", `${files.dir}/grants.json is not a grant list this bridge wrote; remove it`);
      for (const grant of parsed.output.grants) store.grants.set(grant.id, grant);
    }
    return store;
  }

  /** A new grant for an approved code exchange, and its first refresh token. */
  async create(client: OAuthClient, opts: { scopes: string[]; resource: string }): Promise<{ grant: Grant; refreshToken: string }> {
    this.prune();
    if (this.active().length >= (this.opts.maxGrants ?? DEFAULT_MAX_GRANTS)) {
      const stalest = this.active().sort((a, b) => a.lastUsedAt - b.lastUsedAt)[0];
      if (stalest !== undefined) this.markRevoked(stalest, "the grant limit was reached and this grant was the least recently used");
    }
    const now = this.now();
    const secret = randomSecret();
    const grant: Grant = {
      id: randomSecret(12),
      clientId: client.clientId,
      ...(client.clientName === undefined ? {} : { clientName: client.clientName }),
      scopes: opts.scopes,
      resource: opts.resource,
      createdAt: now,
      lastUsedAt: now,
      refreshHash: await sha256Base64url(secret),
      refreshExpiresAt: now + (this.opts.refreshTtlMs ?? REFRESH_TTL_MS),
      usedHashes: [],
    };
    this.grants.set(grant.id, grant);
    await this.save();
    return { grant, refreshToken: `${grant.id}.${secret}` };
  }

  /** Exchanges a refresh token for the next one; invalid_grant for anything but the current, live token of this client. */
  async rotate(refreshToken: string | undefined, clientId: string): Promise<{ grant: Grant; refreshToken: string }> {
    const found = await this.find(refreshToken);
    if (found === undefined) throw invalidGrant("the refresh token is not one this server issued");
    const { grant, hash } = found;
    if (grant.revokedAt !== undefined) throw invalidGrant(`the grant was revoked (${grant.revokedReason ?? "revoked"})`);
    if (grant.clientId !== clientId) throw invalidGrant("the refresh token was issued to another client");
    if (!tokensEqual(hash, grant.refreshHash)) {
      if (grant.usedHashes.includes(hash)) {
        this.markRevoked(grant, "a rotated-out refresh token was presented again");
        await this.save();
        throw invalidGrant("this refresh token was already used; the whole grant is now revoked, authorize again");
      }
      throw invalidGrant("the refresh token is not one this server issued");
    }
    const now = this.now();
    if (grant.refreshExpiresAt <= now) throw invalidGrant("the refresh token has expired; authorize again");
    const secret = randomSecret();
    grant.usedHashes = [...grant.usedHashes, grant.refreshHash].slice(-USED_KEPT);
    grant.refreshHash = await sha256Base64url(secret);
    grant.refreshExpiresAt = now + (this.opts.refreshTtlMs ?? REFRESH_TTL_MS);
    grant.lastUsedAt = now;
    await this.save();
    return { grant, refreshToken: `${grant.id}.${secret}` };
  }

  /** The grant a refresh token (current or rotated out) belongs to, for revocation (RFC 7009). */
  async ofRefreshToken(refreshToken: string): Promise<Grant | undefined> {
    const found = await this.find(refreshToken);
    if (found === undefined) return undefined;
    const { grant, hash } = found;
    return tokensEqual(hash, grant.refreshHash) || grant.usedHashes.includes(hash) ? grant : undefined;
  }

  /** Whether access tokens of this grant are still honoured: one lookup, whatever the number of grants. */
  isActive(grantId: string): boolean {
    const grant = this.grants.get(grantId);
    return grant !== undefined && grant.revokedAt === undefined;
  }

  get(grantId: string): Grant | undefined {
    return this.grants.get(grantId);
  }

  async revoke(grantId: string, reason: string): Promise<boolean> {
    const grant = this.grants.get(grantId);
    if (grant === undefined || grant.revokedAt !== undefined) return false;
    this.markRevoked(grant, reason);
    await this.save();
    return true;
  }

  /** Every grant, live and recently revoked, newest first. */
  list(): readonly Grant[] {
    return [...this.grants.values()].sort((a, b) => b.createdAt - a.createdAt);
  }

  inUse(clientId: string): boolean {
    return this.active().some((g) => g.clientId === clientId);
  }

  private active(): Grant[] {
    return [...this.grants.values()].filter((g) => g.revokedAt === undefined);
  }

  private markRevoked(grant: Grant, reason: string): void {
    grant.revokedAt = this.now();
    grant.revokedReason = reason;
  }

  /** Forgets grants none of whose tokens can still be valid: revoked, or past their refresh expiry, plus one access lifetime. */
  private prune(): void {
    const now = this.now();
    for (const grant of this.grants.values()) {
      const over = grant.revokedAt ?? (grant.refreshExpiresAt <= now ? grant.lastUsedAt : undefined);
      if (over !== undefined && now - over > this.opts.accessTtlMs + 60_000) this.grants.delete(grant.id);
    }
  }

  private async find(refreshToken: string | undefined): Promise<{ grant: Grant; hash: string } | undefined> {
    const dot = refreshToken?.indexOf(".") ?? -1;
    if (refreshToken === undefined || dot <= 0) return undefined;
    const grant = this.grants.get(refreshToken.slice(0, dot));
    if (grant === undefined) return undefined;
    return { grant, hash: await sha256Base64url(refreshToken.slice(dot + 1)) };
  }

  private save(): Promise<void> {
    this.prune();
    return this.files.write("grants.json", { grants: [...this.grants.values()] });
  }
}

function invalidGrant(why: string): OAuthError {
  return new OAuthError("invalid_grant", why);
}
