// A Streamable HTTP session: the MCP session plus its SSE channels (the standalone GET stream
// and one per streamed POST). A channel is kept for resumption until its stream reached a
// connected client whole; what undelivered channels keep is bounded in characters per session, oldest
// events dropped first, so large responses to clients that went away cannot pile up.
import type { McpSession } from "../../mcp/sessions/session.ts";
import { SseChannel, type ChannelOwner } from "./sse-channel.ts";

const MAX_CHANNELS = 50;
/**
 * Characters of SSE events one session keeps for Last-Event-ID replays (kept as strings: one or
 * two bytes of memory each). A response at the default result cap (512 K chars, its text and
 * structured copy) is ~1-2 M characters, so this keeps at least one whole; with the pool full (64
 * sessions) the bound is 256 M characters, reached only if every client lost its connection
 * during a large response.
 */
export const REPLAY_CHARS_PER_SESSION = 4 * 1024 * 1024;

export class HttpSession {
  /** The standalone GET stream's channel; messages not tied to a request go there. */
  standalone: SseChannel | undefined;
  private readonly channels = new Map<string, SseChannel>();
  private stamps = 0;
  private readonly owner: ChannelOwner = {
    stamp: () => this.stamps++,
    kept: () => this.enforceReplayBound(),
    delivered: (channel) => {
      if (channel !== this.standalone) this.channels.delete(channel.streamId);
    },
  };

  constructor(
    readonly mcp: McpSession,
    private readonly replayChars = REPLAY_CHARS_PER_SESSION,
  ) {}

  get id(): string {
    return this.mcp.id;
  }

  /** Characters kept for replay across the session's channels. */
  get keptChars(): number {
    let total = 0;
    for (const channel of this.channels.values()) total += channel.keptChars;
    return total;
  }

  newChannel(): SseChannel {
    const channel = new SseChannel(crypto.randomUUID().slice(0, 8), this.owner);
    this.channels.set(channel.streamId, channel);
    // Keep recent channels only; finished ones are dropped first, oldest first.
    if (this.channels.size > MAX_CHANNELS) {
      for (const [id, old] of this.channels) {
        if (old.finished && old !== this.standalone) {
          this.channels.delete(id);
          break;
        }
      }
    }
    return channel;
  }

  channel(streamId: string): SseChannel | undefined {
    return this.channels.get(streamId);
  }

  close(): void {
    this.mcp.close();
    for (const channel of this.channels.values()) channel.closeConnection();
    this.channels.clear();
    this.standalone = undefined;
  }

  /** Drops the session's oldest kept events until the rest fit in `replayChars`. */
  private enforceReplayBound(): void {
    let total = this.keptChars;
    while (total > this.replayChars) {
      let oldest: SseChannel | undefined;
      for (const channel of this.channels.values()) {
        const stamp = channel.oldestStamp;
        if (stamp !== undefined && (oldest === undefined || stamp < (oldest.oldestStamp ?? Infinity))) oldest = channel;
      }
      if (!oldest) return;
      total -= oldest.dropOldest();
    }
  }
}
