// The owner's view of the grants (claude-ide-bridge oauth list|revoke): through the running bridge
// (GET /oauth/grants, POST /oauth/grants/revoke with the bridge token), or on the state files when
// no bridge holds them.
import type { Grant, GrantStore } from "./grants.ts";

export interface GrantSummary {
  id: string;
  clientId: string;
  clientName: string | undefined;
  scopes: readonly string[];
  createdAt: string;
  lastUsedAt: string;
  status: "active" | "revoked" | "expired";
  revokedReason?: string;
}

/** Which grants to revoke: one, all of a client's, or all. */
export type RevokeSelector = { grant: string } | { client: string } | { all: true };

export function summarize(grant: Grant, now: number): GrantSummary {
  const status = grant.revokedAt !== undefined ? "revoked" : grant.refreshExpiresAt <= now ? "expired" : "active";
  return {
    id: grant.id,
    clientId: grant.clientId,
    clientName: grant.clientName,
    scopes: grant.scopes,
    createdAt: new Date(grant.createdAt).toISOString(),
    lastUsedAt: new Date(grant.lastUsedAt).toISOString(),
    status,
    ...(grant.revokedReason === undefined ? {} : { revokedReason: grant.revokedReason }),
  };
}

/** Revokes the selected grants; returns the ids revoked now (already revoked ones are not counted). */
export async function revokeSelected(grants: GrantStore, selector: RevokeSelector): Promise<string[]> {
  const chosen = grants
    .list()
    .filter((g) => ("all" in selector ? true : "grant" in selector ? g.id === selector.grant : g.clientId === selector.client));
  const revoked: string[] = [];
  for (const grant of chosen)
    if (await grants.revoke(grant.id, "revoked by the owner (claude-ide-bridge oauth revoke)")) revoked.push(grant.id);
  return revoked;
}

/** The selector of a JSON body {grant} | {client} | {all: true}, or undefined. */
export function parseSelector(body: unknown): RevokeSelector | undefined {
  if (typeof body !== "object" || body === null) return undefined;
  const fields = body as Record<string, unknown>;
  if (typeof fields.grant === "string" && fields.grant !== "") return { grant: fields.grant };
  if (typeof fields.client === "string" && fields.client !== "") return { client: fields.client };
  if (fields.all === true) return { all: true };
  return undefined;
}
