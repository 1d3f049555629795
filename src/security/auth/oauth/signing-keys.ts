// The ES256 keys access tokens are signed with: made on first start, kept in keys.json (0600) with
// a `kid` (the JWK thumbprint, RFC 7638). After ROTATE_AFTER_MS a new key signs; the old one keeps
// verifying until the last token it signed has expired, then it is dropped.
import { calculateJwkThumbprint, createLocalJWKSet, exportJWK, generateKeyPair, importJWK, type JWK } from "jose";
import * as v from "valibot";
import { BridgeError } from "../../../errors.ts";
import type { StateFiles } from "./state-files.ts";

const ROTATE_AFTER_MS = 30 * 24 * 3_600_000;
/** Verifying past a token's exp allows for clock skew (the verifier's tolerance). */
const SKEW_MS = 60_000;

const StoredKey = v.object({
  kid: v.string(),
  createdAt: v.number(),
  retiredAt: v.optional(v.number()),
  jwk: v.looseObject({ kty: v.literal("EC"), crv: v.literal("P-256"), x: v.string(), y: v.string(), d: v.string() }),
});
const KeysFile = v.object({ keys: v.array(StoredKey) });
type StoredKey = v.InferOutput<typeof StoredKey>;

export type KeyResolver = ReturnType<typeof createLocalJWKSet>;

interface KeyOptions {
  /** How long a retired key keeps verifying: the access-token lifetime. */
  tokenTtlMs: number;
  now?: () => number;
  rotateAfterMs?: number;
}

export class SigningKeys {
  private keys: StoredKey[] = [];
  private signing: { kid: string; key: CryptoKey } | undefined;
  private resolver: KeyResolver = createLocalJWKSet({ keys: [] });
  private readonly now: () => number;

  private constructor(
    private readonly files: StateFiles,
    private readonly opts: KeyOptions,
  ) {
    this.now = opts.now ?? Date.now;
  }

  static async open(files: StateFiles, opts: KeyOptions): Promise<SigningKeys> {
    const ring = new SigningKeys(files, opts);
    const raw = await files.read("keys.json");
    if (raw !== undefined) {
      const parsed = v.safeParse(KeysFile, raw);
      if (!parsed.success) throw new BridgeError("startup_failed", `${files.dir}/keys.json is not a key file this bridge wrote; remove it`);
      ring.keys = parsed.output.keys;
    }
    await ring.rotateIfDue();
    return ring;
  }

  /** The key to sign with, made or rotated first when due. */
  async current(): Promise<{ kid: string; key: CryptoKey }> {
    await this.rotateIfDue();
    if (this.signing === undefined) throw new BridgeError("startup_failed", "no signing key");
    return this.signing;
  }

  /** The public keys that still verify, as a JWK Set (the jwks_uri document). */
  jwks(): { keys: JWK[] } {
    return { keys: this.keys.map((k) => publicJwk(k)) };
  }

  /** Resolves a token's `kid` to its public key; imported keys are cached, so a check costs the same every time. */
  get verificationKeys(): KeyResolver {
    return this.resolver;
  }

  /** Starts signing with a new key now; the old one verifies until its tokens have expired. */
  async rotate(): Promise<void> {
    const now = this.now();
    const { privateKey } = await generateKeyPair("ES256", { extractable: true });
    const jwk = await exportJWK(privateKey);
    const { kty, crv, x, y, d } = jwk;
    if (kty !== "EC" || crv !== "P-256" || x === undefined || y === undefined || d === undefined)
      throw new BridgeError("startup_failed", "the new ES256 key did not export as a P-256 JWK");
    const kid = await calculateJwkThumbprint({ kty, crv, x, y });
    for (const key of this.keys) key.retiredAt ??= now;
    this.keys.push({ kid, createdAt: now, jwk: { kty: "EC", crv: "P-256", x, y, d } });
    await this.settle({ save: true });
  }

  private async rotateIfDue(): Promise<void> {
    const active = this.keys.find((k) => k.retiredAt === undefined);
    if (active === undefined || this.now() - active.createdAt >= (this.opts.rotateAfterMs ?? ROTATE_AFTER_MS)) return this.rotate();
    if (this.signing?.kid !== active.kid) await this.settle({ save: false });
  }

  /** Drops keys no unexpired token can name, rebuilds the signing key and the resolver, and saves when anything changed. */
  private async settle(opts: { save: boolean }): Promise<void> {
    const now = this.now();
    const kept = this.keys.filter((k) => k.retiredAt === undefined || now - k.retiredAt < this.opts.tokenTtlMs + SKEW_MS);
    const pruned = kept.length !== this.keys.length;
    this.keys = kept;
    const active = this.keys.find((k) => k.retiredAt === undefined);
    if (active === undefined) throw new BridgeError("startup_failed", "no active signing key");
    this.signing = { kid: active.kid, key: await importPrivate(active) };
    this.resolver = createLocalJWKSet(this.jwks());
    if (opts.save || pruned) await this.files.write("keys.json", { keys: this.keys });
  }
}

function publicJwk(key: StoredKey): JWK {
  const { kty, crv, x, y } = key.jwk;
  return { kty, crv, x, y, kid: key.kid, alg: "ES256", use: "sig" };
}

async function importPrivate(key: StoredKey): Promise<CryptoKey> {
  const imported = await importJWK({ ...key.jwk, alg: "ES256" }, "ES256");
  if (!(imported instanceof CryptoKey)) throw new BridgeError("startup_failed", "the signing key did not import as a CryptoKey");
  return imported;
}
