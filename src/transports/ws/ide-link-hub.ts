// Claude Code's IDE link, the part that is not a tool (protocol.md A6): what VS Code reports goes
// to every Claude Code connected over the lock file. `selection_changed` is debounced (100 ms, the
// last selection wins); `at_mentioned` (the user sent lines to Claude from VS Code) is queued until
// a client has initialized and sent 25 ms apart. A client that disconnects takes its pending diffs
// with it (rejected and closed in VS Code), since no answer could reach it any more.
import type { ExtensionClient } from "../../extension/extension-client.ts";
import type { PushOf } from "../../extension/protocol.ts";
import { notificationMessage, type Params } from "../../mcp/protocol/jsonrpc.ts";
import type { MessageSink } from "../../mcp/sessions/session.ts";

export const SELECTION_DEBOUNCE_MS = 100;
export const MENTION_SPACING_MS = 25;
/** Mentions kept while no client is there to take them; older ones are dropped first. */
const MAX_QUEUED_MENTIONS = 50;

interface IdeClient {
  session: string;
  sink: MessageSink;
  ready(): boolean;
}

export class IdeLinkHub {
  private readonly clients = new Set<IdeClient>();
  private readonly mentions: Params[] = [];
  private selectionTimer: ReturnType<typeof setTimeout> | undefined;
  private mentionTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly unsubscribe: () => void;

  constructor(private readonly extension: Pick<ExtensionClient, "on" | "state" | "closeDiffs">) {
    this.unsubscribe = extension.on((event) => {
      if (event.type !== "push") return;
      if (event.method === "extension/selectionChanged") this.selectionChanged();
      else if (event.method === "extension/atMentioned") this.mentioned(event.params as PushOf<"extension/atMentioned">);
    });
  }

  /** A Claude Code socket opened; `ready` says whether its session has initialized. */
  add(client: IdeClient): () => void {
    this.clients.add(client);
    return () => {
      this.clients.delete(client);
      void this.extension.closeDiffs(client.session);
    };
  }

  /** Something arrived from a client (it may have just initialized): send what waited for one. */
  activity(): void {
    if (this.mentions.length > 0) this.sendMentions();
  }

  stop(): void {
    this.unsubscribe();
    if (this.selectionTimer !== undefined) clearTimeout(this.selectionTimer);
    if (this.mentionTimer !== undefined) clearTimeout(this.mentionTimer);
    this.clients.clear();
  }

  private ready(): IdeClient[] {
    return [...this.clients].filter((c) => c.ready());
  }

  private selectionChanged(): void {
    if (this.selectionTimer !== undefined) clearTimeout(this.selectionTimer);
    this.selectionTimer = setTimeout(() => {
      this.selectionTimer = undefined;
      const selection = this.extension.state.selection;
      if (selection === undefined) return;
      const message = notificationMessage("selection_changed", { ...selection });
      for (const client of this.ready()) client.sink.send(message);
    }, SELECTION_DEBOUNCE_MS);
  }

  private mentioned(mention: PushOf<"extension/atMentioned">): void {
    const params: Params = { filePath: mention.filePath };
    if (mention.lineStart !== undefined) params.lineStart = mention.lineStart;
    if (mention.lineEnd !== undefined) params.lineEnd = mention.lineEnd;
    this.mentions.push(params);
    if (this.mentions.length > MAX_QUEUED_MENTIONS) this.mentions.shift();
    this.sendMentions();
  }

  private sendMentions(): void {
    if (this.mentionTimer !== undefined) return;
    const clients = this.ready();
    const next = this.mentions[0];
    if (clients.length === 0 || next === undefined) return;
    this.mentions.shift();
    const message = notificationMessage("at_mentioned", next);
    for (const client of clients) client.sink.send(message);
    if (this.mentions.length > 0) {
      this.mentionTimer = setTimeout(() => {
        this.mentionTimer = undefined;
        this.sendMentions();
      }, MENTION_SPACING_MS);
    }
  }
}
