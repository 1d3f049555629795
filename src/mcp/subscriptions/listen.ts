// One subscriptions/listen request (2026-07-28 "Subscriptions"): the filter the client asked for,
// cut down to what this server honours; the acknowledgement first; then each matching change as
// a notification tagged with the subscription id (the listen request's JSON-RPC id). It ends when
// the client cancels (a closed stream, notifications/cancelled), the session ends, or the server
// ends it gracefully with a result.
import * as v from "valibot";
import { ProtocolError, RpcCode } from "../../errors.ts";
import { type JsonRpcNotification, type Params, type RequestId, notificationMessage } from "../protocol/jsonrpc.ts";
import { META_SUBSCRIPTION_ID } from "../protocol/revisions/modern.ts";
import type { Change, ListKind, SubscriptionHub } from "./subscription-hub.ts";

const Filter = v.object({
  toolsListChanged: v.optional(v.boolean()),
  promptsListChanged: v.optional(v.boolean()),
  resourcesListChanged: v.optional(v.boolean()),
  resourceSubscriptions: v.optional(v.array(v.string())),
  taskIds: v.optional(v.array(v.string())),
});
export type SubscriptionFilter = v.InferOutput<typeof Filter>;

const NOTIFICATION: Record<ListKind, string> = {
  toolsListChanged: "notifications/tools/list_changed",
  promptsListChanged: "notifications/prompts/list_changed",
  resourcesListChanged: "notifications/resources/list_changed",
};

/** The filter a listen request carries; -32602 when it is not one. */
export function readFilter(params: Params | undefined): SubscriptionFilter {
  const parsed = v.safeParse(Filter, params?.notifications ?? {});
  if (!parsed.success) {
    throw new ProtocolError(
      RpcCode.invalidParams,
      "Invalid params: subscriptions/listen takes notifications: {toolsListChanged?, promptsListChanged?, resourcesListChanged?, resourceSubscriptions?, taskIds?}",
    );
  }
  return parsed.output;
}

/**
 * What the server agrees to: list changes it announces (its capabilities say which), task status
 * when the tasks extension is in play, and updates of the resources it could watch (resource-listen.ts).
 */
export function agreedFilter(
  asked: SubscriptionFilter,
  offers: { lists: readonly ListKind[]; tasks: boolean; resources?: readonly string[] },
): SubscriptionFilter {
  const agreed: SubscriptionFilter = {};
  for (const kind of offers.lists) if (asked[kind] === true) agreed[kind] = true;
  if (offers.tasks && asked.taskIds !== undefined) agreed.taskIds = [...asked.taskIds];
  if (offers.resources !== undefined && offers.resources.length > 0) agreed.resourceSubscriptions = [...offers.resources];
  return agreed;
}

export interface Subscription {
  readonly id: RequestId;
  /** Ends it; `graceful` answers the listen request (the server chose to end it). */
  end(graceful: boolean): void;
  /** Settles when it ended: with the listen request's result when graceful. */
  readonly ended: Promise<Params | undefined>;
}

export function openSubscription(
  hub: SubscriptionHub,
  opts: { id: RequestId; filter: SubscriptionFilter; send(message: JsonRpcNotification): void },
): Subscription {
  const { id, filter, send } = opts;
  const tag = { [META_SUBSCRIPTION_ID]: id };
  send(notificationMessage("notifications/subscriptions/acknowledged", { _meta: tag, notifications: filter }));
  const stop = hub.listen((change: Change) => {
    if (change.kind === "task") {
      if (filter.taskIds?.includes(change.taskId)) send(notificationMessage("notifications/tasks", { ...change.task, _meta: tag }));
    } else if (filter[change.kind] === true) {
      send(notificationMessage(NOTIFICATION[change.kind], { _meta: tag }));
    }
  });
  let settle: (value: Params | undefined) => void = () => {};
  const ended = new Promise<Params | undefined>((resolve) => {
    settle = resolve;
  });
  let open = true;
  return {
    id,
    ended,
    end(graceful) {
      if (!open) return;
      open = false;
      stop();
      settle(graceful ? { _meta: tag } : undefined);
    },
  };
}
