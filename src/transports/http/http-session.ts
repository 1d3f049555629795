// A Streamable HTTP session: the MCP session plus its SSE channels (the standalone GET stream
// and one per streamed POST). A channel is kept for resumption until its stream reached a
// connected client whole; what undelivered channels keep is bounded in bytes per session, oldest
// events dropped first, so large responses to clients that went away cannot pile up.
import type { McpSession } from "../../mcp/sessions/session.ts";
import { SseChannel, type ChannelOwner } from "./sse-channel.ts";

const MAX_CHANNELS = 50;
/**
 * Bytes of SSE events one session keeps for Last-Event-ID replays. A response at the default
 * result cap (512 K chars, its text and structured copy) is ~1-2 MB on the wire, so this keeps at
 * least one whole; with the pool full (64 sessions) the bound is 256 MiB, reached only if every
 * client lost its connection during a large response.
 */
export const REPLAY_BYTES_PER_SESSION = 4 * 1024 * 1024;

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
    private readonly replayBytes = REPLAY_BYTES_PER_SESSION,
  ) {}

  get id(): string {
    return this.mcp.id;
  }

  /** Bytes kept for replay across the session's channels. */
  get keptBytes(): number {
    let total = 0;
    for (const channel of this.channels.values()) total += channel.keptBytes;
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

  /** Drops the session's oldest kept events until the rest fit in `replayBytes`. */
  private enforceReplayBound(): void {
    let total = this.keptBytes;
    while (total > this.replayBytes) {
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
