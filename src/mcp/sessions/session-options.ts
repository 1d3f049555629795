// What an MCP session (src/mcp/sessions/session.ts) is made with: its tools, limits, budgets and
// the bridge's shared parts it reaches.
import type { EventPublisher } from "../../capabilities/events/event-bus.ts";
import type { CallScope, ToolContext } from "../../capabilities/context.ts";
import type { Logger } from "../../log.ts";
import type { ToolRegistry } from "../../tools/platform/registry.ts";
import type { ContentSources, CoreLimits } from "../core/mcp-core.ts";
import type { Budget } from "../limits/rate-budget.ts";
import type { SubscriptionHub } from "../subscriptions/subscription-hub.ts";
import type { TaskStore } from "../tasks/task-store.ts";
import type { ClientRoot } from "./client-roots.ts";

export interface SessionOptions {
  registry: ToolRegistry;
  makeToolContext(call: CallScope): ToolContext;
  limits: SessionLimits;
  /** The budget of the credential this session authenticated with, shared with its other sessions. */
  credential: Budget;
  /** Where finished tool calls are announced ("tool.called"). */
  events: EventPublisher;
  logger: Logger;
  instructions?: string;
  now?: () => number;
  /** Called once when the session ends, after its in-flight calls were aborted: what it held is released. */
  onClosed?(sessionId: string): void;
  /** The bridge's list-change hub (subscriptions/listen); a session of its own when not given. */
  hub?: SubscriptionHub;
  /** The bridge's MCP Tasks; a store of its own when not given. */
  tasks?: TaskStore;
  /** Prompts and resources; none when not given. */
  content?: ContentSources;
  /**
   * The stateless endpoint's session (modern HTTP requests of every client): it never initializes,
   * and its tool calls are charged to the credential's budget alone, as no one client owns it.
   */
  stateless?: boolean;
  /** Given the folders a client offering MCP roots names (src/mcp/sessions/client-roots.ts); without it none is asked. */
  onClientRoots?(sessionId: string, roots: readonly ClientRoot[]): void;
}

export type SessionLimits = CoreLimits;
