// Client ID Metadata Documents (draft-ietf-oauth-client-id-metadata-document, preferred by the MCP
// authorization spec over registration): a client_id that is an https URL names a JSON document
// describing the client. It is fetched through the caller's SSRF-safe client (private and loopback
// addresses refused unless allowed), at most 5 KB, within 5 s, no redirects, and cached.
import { OAuthError } from "./oauth-error.ts";
import { MAX_REDIRECT_URIS, redirectUriProblem } from "./redirect-uris.ts";
import type { OAuthClient } from "./oauth-client.ts";

export const MAX_METADATA_BYTES = 5 * 1024;
const FETCH_TIMEOUT_MS = 5_000;
const DEFAULT_CACHE_MS = 5 * 60_000;
const MAX_CACHE_MS = 24 * 3_600_000;
const FAILURE_CACHE_MS = 30_000;
const MAX_CACHED = 100;

export interface FetchedDocument {
  status: number;
  headers: readonly (readonly [string, string])[];
  /** Undefined for a binary body. */
  text: string | undefined;
  truncated: boolean;
}

/** The SSRF-safe GET the bridge does for documents (src/capabilities/http), injected from above. */
export type FetchDocument = (url: string, opts: { maxBytes: number; timeoutMs: number }) => Promise<FetchedDocument>;

/** Whether a client_id is meant as a metadata document URL (and so must be one). */
export function isMetadataDocumentId(clientId: string): boolean {
  return clientId.startsWith("https://");
}

type Cached = { client: OAuthClient; until: number } | { error: OAuthError; until: number };

export class ClientMetadataDocuments {
  private readonly cache = new Map<string, Cached>();

  constructor(
    private readonly fetchDocument: FetchDocument,
    private readonly now: () => number = Date.now,
  ) {}

  async resolve(clientId: string): Promise<OAuthClient> {
    const hit = this.cache.get(clientId);
    if (hit !== undefined && hit.until > this.now()) {
      if ("error" in hit) throw hit.error;
      return hit.client;
    }
    try {
      const { client, maxAgeMs } = await this.fetch(clientId);
      this.remember(clientId, { client, until: this.now() + maxAgeMs });
      return client;
    } catch (err) {
      const error =
        err instanceof OAuthError
          ? err
          : new OAuthError("invalid_client", `client metadata document ${clientId}: ${String(err)}`, { status: 400 });
      this.remember(clientId, { error, until: this.now() + FAILURE_CACHE_MS });
      throw error;
    }
  }

  private remember(clientId: string, entry: Cached): void {
    this.cache.delete(clientId);
    if (this.cache.size >= MAX_CACHED) {
      const oldest = this.cache.keys().next();
      if (oldest.done !== true) this.cache.delete(oldest.value);
    }
    this.cache.set(clientId, entry);
  }

  private async fetch(clientId: string): Promise<{ client: OAuthClient; maxAgeMs: number }> {
    checkDocumentUrl(clientId);
    let fetched: FetchedDocument;
    try {
      fetched = await this.fetchDocument(clientId, { maxBytes: MAX_METADATA_BYTES, timeoutMs: FETCH_TIMEOUT_MS });
    } catch (err) {
      throw invalidClient(clientId, `could not be fetched: ${err instanceof Error ? err.message : String(err)}`);
    }
    if (fetched.status !== 200) throw invalidClient(clientId, `answered HTTP ${fetched.status}, not 200`);
    if (fetched.truncated) throw invalidClient(clientId, `is larger than ${MAX_METADATA_BYTES} bytes`);
    let doc: unknown;
    try {
      doc = JSON.parse(fetched.text ?? "");
    } catch {
      throw invalidClient(clientId, "is not JSON");
    }
    return { client: parseDocument(clientId, doc), maxAgeMs: maxAge(fetched.headers) };
  }
}

/**
 * https, a path, no fragment or credentials, in normal form (the draft's rules for client_id);
 * normal form also rules out . and .. segments, which the URL parser removes.
 */
function checkDocumentUrl(clientId: string): void {
  const url = URL.canParse(clientId) ? new URL(clientId) : undefined;
  if (url === undefined || url.protocol !== "https:") throw invalidClient(clientId, "is not an https URL");
  if (url.pathname === "/" || url.hash !== "" || url.username !== "" || url.password !== "" || url.href !== clientId)
    throw invalidClient(clientId, "must be an https URL with a path, in normal form, without fragment or credentials");
}

function parseDocument(clientId: string, doc: unknown): OAuthClient {
  if (typeof doc !== "object" || doc === null || Array.isArray(doc)) throw invalidClient(clientId, "is not a JSON object");
  const fields = doc as Record<string, unknown>;
  if (fields.client_id !== clientId)
    throw invalidClient(clientId, `names another client_id (${JSON.stringify(fields.client_id)?.slice(0, 200)})`);
  if ("client_secret" in fields) throw invalidClient(clientId, "carries a client_secret, which a public document must not");
  const method = fields.token_endpoint_auth_method;
  if (method !== undefined && method !== "none")
    throw invalidClient(
      clientId,
      `uses token_endpoint_auth_method ${JSON.stringify(method)}; this server takes public clients ("none") only`,
    );
  const uris = fields.redirect_uris;
  if (!Array.isArray(uris) || uris.length === 0 || uris.length > MAX_REDIRECT_URIS)
    throw invalidClient(clientId, `needs redirect_uris: 1 to ${MAX_REDIRECT_URIS} URIs`);
  for (const uri of uris) {
    const problem = redirectUriProblem(uri);
    if (problem !== undefined) throw invalidClient(clientId, problem);
  }
  const name = fields.client_name;
  return {
    clientId,
    clientName: typeof name === "string" && name.trim() !== "" ? name.slice(0, 200) : undefined,
    redirectUris: uris.map(String),
    kind: "metadata-document",
  };
}

/** The document's cache lifetime: Cache-Control max-age within [1 min, 24 h], else 5 min. */
function maxAge(headers: FetchedDocument["headers"]): number {
  const control = headers.find(([name]) => name.toLowerCase() === "cache-control")?.[1] ?? "";
  if (/\bno-store\b|\bno-cache\b/i.test(control)) return 60_000;
  const seconds = /\bmax-age=(\d+)/i.exec(control)?.[1];
  if (seconds === undefined) return DEFAULT_CACHE_MS;
  return Math.min(MAX_CACHE_MS, Math.max(60_000, Number(seconds) * 1000));
}

function invalidClient(clientId: string, why: string): OAuthError {
  return new OAuthError("invalid_client", `client metadata document ${clientId.slice(0, 300)} ${why}`, { status: 400 });
}
