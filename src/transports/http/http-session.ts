// A Streamable HTTP session: the MCP session plus its SSE channels (the standalone GET stream
// and one per streamed POST), kept for resumption until the session ends.
import type { McpSession } from "../../mcp/session.ts";
import { SseChannel } from "./sse-channel.ts";

const MAX_CHANNELS = 50;

export class HttpSession {
  /** The standalone GET stream's channel; messages not tied to a request go there. */
  standalone: SseChannel | undefined;
  private readonly channels = new Map<string, SseChannel>();

  constructor(readonly mcp: McpSession) {}

  get id(): string {
    return this.mcp.id;
  }

  newChannel(): SseChannel {
    const channel = new SseChannel(crypto.randomUUID().slice(0, 8));
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
}
