// The clients the authorization server knows: those registered here by dynamic client registration
// (RFC 7591; public clients only, persisted in clients.json) and those that name a Client ID
// Metadata Document (client-metadata.ts). Registration is bounded in size and count.
import * as v from "valibot";
import { BridgeError } from "../../../errors.ts";
import { ClientMetadataDocuments, isMetadataDocumentId, type FetchDocument } from "./client-metadata.ts";
import type { OAuthClient } from "./oauth-client.ts";
import { OAuthError } from "./oauth-error.ts";
import { MAX_REDIRECT_URIS, redirectUriProblem } from "./redirect-uris.ts";
import { splitScopes, SUPPORTED_SCOPES } from "./scopes.ts";
import { randomSecret } from "./secrets.ts";
import type { StateFiles } from "./state-files.ts";

export const MAX_REGISTRATION_BYTES = 8 * 1024;
const DEFAULT_MAX_CLIENTS = 200;

const StoredClient = v.object({
  clientId: v.string(),
  clientName: v.optional(v.string()),
  redirectUris: v.array(v.string()),
  createdAt: v.number(),
});
type StoredClient = v.InferOutput<typeof StoredClient>;
const ClientsFile = v.object({ clients: v.array(StoredClient) });

interface ClientStoreOptions {
  fetchDocument: FetchDocument;
  /** Whether a client still holds a grant: such a client is never dropped to make room. */
  inUse(clientId: string): boolean;
  maxClients?: number;
  now?: () => number;
}

export class ClientStore {
  private readonly registered = new Map<string, StoredClient>();
  private readonly documents: ClientMetadataDocuments;
  private readonly now: () => number;

  private constructor(
    private readonly files: StateFiles,
    private readonly opts: ClientStoreOptions,
  ) {
    this.now = opts.now ?? Date.now;
    this.documents = new ClientMetadataDocuments(opts.fetchDocument, this.now);
  }

  static async open(files: StateFiles, opts: ClientStoreOptions): Promise<ClientStore> {
    const store = new ClientStore(files, opts);
    const raw = await files.read("clients.json");
    if (raw !== undefined) {
      const parsed = v.safeParse(ClientsFile, raw);
      if (!parsed.success)
        throw new BridgeError("startup_failed", `${files.dir}/clients.json is not a client list this bridge wrote; remove it`);
      for (const client of parsed.output.clients) store.registered.set(client.clientId, client);
    }
    return store;
  }

  /** The client a client_id names; invalid_client (400 at the authorization endpoint) when none. */
  async resolve(clientId: string | undefined): Promise<OAuthClient> {
    if (clientId === undefined || clientId === "") throw new OAuthError("invalid_request", "client_id is required");
    if (isMetadataDocumentId(clientId)) return this.documents.resolve(clientId);
    const stored = this.registered.get(clientId);
    if (stored === undefined)
      throw new OAuthError(
        "invalid_client",
        `unknown client_id ${clientId.slice(0, 100)}; register first (registration_endpoint) or use a client metadata document URL`,
        { status: 400 },
      );
    return { clientId: stored.clientId, clientName: stored.clientName, redirectUris: stored.redirectUris, kind: "registered" };
  }

  /** RFC 7591 registration of a public client: the 201 body. */
  async register(body: unknown): Promise<Record<string, unknown>> {
    const request = checkRegistration(body);
    if (this.registered.size >= (this.opts.maxClients ?? DEFAULT_MAX_CLIENTS)) this.makeRoom();
    const now = this.now();
    const client: StoredClient = {
      clientId: `bridge-${randomSecret(16)}`,
      ...(request.clientName === undefined ? {} : { clientName: request.clientName }),
      redirectUris: request.redirectUris,
      createdAt: now,
    };
    this.registered.set(client.clientId, client);
    await this.save();
    return {
      client_id: client.clientId,
      client_id_issued_at: Math.floor(now / 1000),
      ...(client.clientName === undefined ? {} : { client_name: client.clientName }),
      redirect_uris: client.redirectUris,
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
      scope: request.scope,
    };
  }

  /** Registered clients, oldest first (claude-ide-bridge oauth list). */
  list(): readonly { clientId: string; clientName: string | undefined; createdAt: number }[] {
    return [...this.registered.values()].map((c) => ({ clientId: c.clientId, clientName: c.clientName, createdAt: c.createdAt }));
  }

  /** Drops the oldest registration without a grant; refuses when every one has one. */
  private makeRoom(): void {
    const idle = [...this.registered.values()].filter((c) => !this.opts.inUse(c.clientId)).sort((a, b) => a.createdAt - b.createdAt)[0];
    if (idle === undefined)
      throw new OAuthError(
        "invalid_client_metadata",
        `this server holds its maximum of ${this.registered.size} registered clients, all with grants; the owner can revoke some (claude-ide-bridge oauth revoke)`,
      );
    this.registered.delete(idle.clientId);
  }

  private save(): Promise<void> {
    return this.files.write("clients.json", { clients: [...this.registered.values()] });
  }
}

function checkRegistration(body: unknown): { redirectUris: string[]; clientName: string | undefined; scope: string } {
  if (typeof body !== "object" || body === null || Array.isArray(body))
    throw new OAuthError("invalid_client_metadata", "the registration must be a JSON object");
  const fields = body as Record<string, unknown>;
  const uris = fields.redirect_uris;
  if (!Array.isArray(uris) || uris.length === 0)
    throw new OAuthError("invalid_redirect_uri", "redirect_uris is required: a non-empty array of URIs");
  if (uris.length > MAX_REDIRECT_URIS) throw new OAuthError("invalid_redirect_uri", `at most ${MAX_REDIRECT_URIS} redirect_uris`);
  for (const uri of uris) {
    const problem = redirectUriProblem(uri);
    if (problem !== undefined) throw new OAuthError("invalid_redirect_uri", problem);
  }
  const method = fields.token_endpoint_auth_method;
  if (method !== undefined && method !== "none")
    throw new OAuthError(
      "invalid_client_metadata",
      `token_endpoint_auth_method ${JSON.stringify(method)} is not supported: this server registers public clients ("none") with PKCE`,
    );
  checkSubset(fields.grant_types, ["authorization_code", "refresh_token"], "grant_types");
  checkSubset(fields.response_types, ["code"], "response_types");
  const name = fields.client_name;
  if (name !== undefined && (typeof name !== "string" || name.length > 200))
    throw new OAuthError("invalid_client_metadata", "client_name must be a string of at most 200 characters");
  const scope = fields.scope;
  if (scope !== undefined && typeof scope !== "string") throw new OAuthError("invalid_client_metadata", "scope must be a string");
  const scopes = splitScopes(scope).filter((s) => SUPPORTED_SCOPES.includes(s));
  return {
    redirectUris: uris.map(String),
    clientName: typeof name === "string" && name.trim() !== "" ? name : undefined,
    scope: (scopes.length > 0 ? scopes : SUPPORTED_SCOPES).join(" "),
  };
}

function checkSubset(value: unknown, allowed: readonly string[], field: string): void {
  if (value === undefined) return;
  if (!Array.isArray(value) || value.some((x) => typeof x !== "string" || !allowed.includes(x)))
    throw new OAuthError("invalid_client_metadata", `${field} may hold only ${allowed.map((a) => `"${a}"`).join(", ")}`);
}
