// Items a server sends without their detail (a code lens without its command, a link without its
// target, an inlay hint without its tooltip) are resolved one by one when the server offers resolve;
// an item whose resolve fails is kept as it came, since the rest of the answer is still true.
import type { LspDocument } from "../../lsp/lsp-service.ts";

/** Whether the server's provider announces resolveProvider. */
export function resolvesItems(provider: unknown): boolean {
  return typeof provider === "object" && provider !== null && (provider as { resolveProvider?: boolean }).resolveProvider === true;
}

export async function resolveEach<T>(
  doc: LspDocument,
  items: readonly T[],
  opts: { method: string; needed(item: T): boolean },
): Promise<T[]> {
  return Promise.all(items.map(async (item) => (opts.needed(item) ? await doc.request<T>(opts.method, item).catch(() => item) : item)));
}
