// resources/list, resources/templates/list, resources/read, and a session's resources/subscribe
// and unsubscribe: the protocol side of src/resources/. A URI that names nothing is -32002 with the
// URI in data (MCP "Resources"; the modern codec renumbers it); a read that cannot be served as
// asked (too large) is -32602 saying why.
import * as v from "valibot";
import { ProtocolError, RpcCode } from "../../errors.ts";
import { listResources, RESOURCE_TEMPLATES, readResource } from "../../resources/resource-catalog.ts";
import { type ResourceContext, ResourceMissing, ResourceRefused } from "../../resources/resource-context.ts";
import type { ResourceWatch } from "../../resources/resource-watch.ts";
import { decodeCursor, encodeCursor } from "../protocol/cursor.ts";
import type { Params } from "../protocol/jsonrpc.ts";

/** The resource list has no version of its own: a cursor stays valid while the offsets mean the same. */
const LIST_VERSION = 1;
const UriParams = v.object({ uri: v.pipe(v.string(), v.minLength(1)) });

export async function listResourcesPage(cursor: unknown, ctx: ResourceContext, opts: { pageSize: number }): Promise<Params> {
  const offset = decodeCursor(cursor, LIST_VERSION);
  const { entries, truncated } = await listResources(ctx);
  const page = entries.slice(offset, offset + opts.pageSize);
  const next = offset + page.length;
  const result: Params = { resources: page };
  if (next < entries.length) result.nextCursor = encodeCursor({ offset: next, listVersion: LIST_VERSION });
  // Said once, on the last page: the list is every file up to the cap, not the whole workspace.
  else if (truncated)
    result._meta = { "claude-ide-bridge/truncated": "the workspace has more files than the list holds; read any by its file:// URI" };
  return result;
}

export function listTemplates(): Params {
  return { resourceTemplates: RESOURCE_TEMPLATES.map((t) => ({ ...t })) };
}

export async function readOne(params: Params | undefined, ctx: ResourceContext, opts: { maxChars: number }): Promise<Params> {
  const uri = uriOf(params, "resources/read");
  try {
    return { contents: [await readResource(uri, ctx, opts)] };
  } catch (err) {
    throw asProtocolError(err);
  }
}

export function uriOf(params: Params | undefined, method: string): string {
  const parsed = v.safeParse(UriParams, params ?? {});
  if (!parsed.success) throw new ProtocolError(RpcCode.invalidParams, `Invalid params: ${method} needs uri (a non-empty string)`);
  return parsed.output.uri;
}

export function asProtocolError(err: unknown): unknown {
  if (err instanceof ResourceMissing) return new ProtocolError(RpcCode.resourceNotFound, err.message, { data: { uri: err.uri } });
  if (err instanceof ResourceRefused)
    return new ProtocolError(RpcCode.invalidParams, `Invalid params: ${err.message}`, { data: { uri: err.uri } });
  return err;
}

/**
 * One session's resource subscriptions (2025 era): each URI at most once; updates and list changes
 * go out through `send` as notifications; all of it stops when the session closes.
 */
export class SessionResources {
  private readonly subscribed = new Map<string, Promise<() => void>>();
  private readonly stopList: () => void;

  constructor(
    private readonly watch: ResourceWatch,
    private readonly send: (method: string, params: Params) => void,
  ) {
    this.stopList = watch.onListChanged(() => send("notifications/resources/list_changed", {}));
  }

  async subscribe(params: Params | undefined): Promise<Params> {
    const uri = uriOf(params, "resources/subscribe");
    if (this.subscribed.has(uri)) return {};
    const stop = this.watch.subscribe(uri, () => this.send("notifications/resources/updated", { uri }));
    this.subscribed.set(uri, stop);
    try {
      await stop;
    } catch (err) {
      this.subscribed.delete(uri);
      throw asProtocolError(err);
    }
    return {};
  }

  async unsubscribe(params: Params | undefined): Promise<Params> {
    const uri = uriOf(params, "resources/unsubscribe");
    const stop = this.subscribed.get(uri);
    this.subscribed.delete(uri);
    if (stop !== undefined) (await stop)();
    return {};
  }

  close(): void {
    this.stopList();
    for (const stop of this.subscribed.values())
      void stop.then(
        (fn) => fn(),
        () => undefined,
      );
    this.subscribed.clear();
  }
}
