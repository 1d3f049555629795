// MCP roots: a client that declares the `roots` capability is asked `roots/list` once the session is
// initialized, and again on `notifications/roots/list_changed`; its answer (the folders it works
// in, as file URIs) goes to the session's owner, which decides what they may be used for
// (src/capabilities/active-folder.ts). Only the latest request counts: an answer to an older one,
// or an unknown id, is ignored, and so is an answer of the wrong shape.
import * as v from "valibot";
import type { JsonRpcResponse, RequestId } from "../protocol/jsonrpc.ts";
import type { MessageSink } from "./message-sink.ts";

/** A client that names more folders than this is cut here: each becomes a folder the session may pick. */
export const MAX_CLIENT_ROOTS = 32;

const RootsResult = v.object({
  roots: v.array(v.object({ uri: v.pipe(v.string(), v.maxLength(4096)), name: v.optional(v.string()) })),
});

export interface ClientRoot {
  readonly uri: string;
  readonly name?: string;
}

interface RootsOptions {
  /** The session's standalone channel to the client, when one is open. */
  sink(): MessageSink | undefined;
  onRoots(roots: readonly ClientRoot[]): void;
}

/** The roots of a client that declared the capability; undefined for one that did not. */
export function clientRootsOf(capabilities: unknown, opts: RootsOptions): ClientRoots | undefined {
  return typeof capabilities === "object" && capabilities !== null && "roots" in capabilities ? new ClientRoots(opts) : undefined;
}

export class ClientRoots {
  private asked = 0;
  private waiting: RequestId | undefined;
  /** Asked while no channel to the client was open: sent when one is attached. */
  private owed = false;

  constructor(private readonly opts: RootsOptions) {}

  /** Asks for the client's roots now, or as soon as a channel is attached. */
  ask(): void {
    this.asked += 1;
    const id = `bridge-roots-${this.asked}`;
    const sink = this.opts.sink();
    sink?.send({ jsonrpc: "2.0", id, method: "roots/list" });
    this.owed = sink === undefined;
    this.waiting = sink === undefined ? undefined : id;
  }

  /** A channel to the client was attached: what was owed is asked now. */
  attached(): void {
    if (this.owed && this.opts.sink() !== undefined) this.ask();
  }

  /** A response from the client: the answer to the latest roots/list is used; nothing is sent back. */
  answer(response: JsonRpcResponse): undefined {
    if (response.id === null || response.id !== this.waiting) return undefined;
    this.waiting = undefined;
    const parsed = "result" in response ? v.safeParse(RootsResult, response.result) : undefined;
    if (parsed?.success) this.opts.onRoots(parsed.output.roots.slice(0, MAX_CLIENT_ROOTS));
    return undefined;
  }
}
