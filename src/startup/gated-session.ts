// An MCP session whose tools/call waits, before it is checked and run, for the modules of its tool's
// toolset when they are not loaded yet (src/startup/lazy-toolsets.ts): the call then runs as every
// later call of that tool does (the live tool's argument check, its VS Code or headless route, the
// backend it names), and nothing arriving while the bridge loads is lost. A cancellation that
// arrives while the call waits ends it there: no answer, as MCP asks of a cancelled request.
import type { Incoming } from "../mcp/protocol/jsonrpc.ts";
import { type Answer, McpSession } from "../mcp/sessions/session.ts";
import type { LazyToolsets } from "./lazy-toolsets.ts";

type SessionOptions = ConstructorParameters<typeof McpSession>[0];
type Related = Parameters<McpSession["handle"]>[1];
type ModernRequest = Parameters<McpSession["handleModern"]>[0];
type ModernDelivery = Parameters<McpSession["handleModern"]>[1];
type Id = string | number;

export class ToolsetGatedSession extends McpSession {
  /** Calls waiting for their toolset, and whether the client cancelled them meanwhile. */
  private readonly waiting = new Map<Id, { cancelled: boolean }>();

  constructor(
    opts: SessionOptions,
    private readonly tools: Pick<LazyToolsets, "pending">,
  ) {
    super(opts);
  }

  // Both ways in (handle, and handleText for a socket's frames) go through answer(); a call whose
  // toolset is loaded, and every other message, is answered as the base session does, at once
  // when it can be.
  protected override answer(incoming: Incoming, related?: Related): Answer {
    if (incoming.kind === "notification" && incoming.message.method === "notifications/cancelled") {
      const id = incoming.message.params?.requestId;
      const call = (typeof id === "string" || typeof id === "number") && this.waiting.get(id);
      if (call) call.cancelled = true;
    }
    if (incoming.kind === "request" && incoming.message.method === "tools/call") {
      const pending = this.pendingFor(incoming.message.params);
      if (pending !== undefined) return this.afterLoading(incoming.message.id, pending, () => super.answer(incoming, related));
    }
    return super.answer(incoming, related);
  }

  private async afterLoading(id: Id, pending: Promise<void>, run: () => Answer): Promise<Awaited<Answer>> {
    const call = { cancelled: false };
    this.waiting.set(id, call);
    await pending;
    this.waiting.delete(id);
    return call.cancelled ? undefined : run();
  }

  override async handleModern(request: ModernRequest, delivery?: ModernDelivery): ReturnType<McpSession["handleModern"]> {
    if (request.method === "tools/call") {
      const pending = this.pendingFor(request.params);
      if (pending !== undefined) await pending;
    }
    return super.handleModern(request, delivery);
  }

  private pendingFor(params: { name?: unknown } | undefined): Promise<void> | undefined {
    const name = params?.name;
    return typeof name === "string" ? this.tools.pending(this.registry.get(name)) : undefined;
  }
}
