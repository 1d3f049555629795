// Claude Code's side of the IDE link, as the real-VS-Code e2e drives it: the lock file's WebSocket,
// initialized as claude-code, with ide_connected sent; requests answered by id and notifications
// kept for a later wait.
import { WebSocket } from "ws";
import type { BridgeProcess } from "./spawn-bridge.ts";

interface LinkMessage {
  id?: number;
  method?: string;
  params?: unknown;
  result?: unknown;
}

export class IdeLinkClient {
  private readonly messages: LinkMessage[] = [];
  private nextId = 1;

  private constructor(private readonly ws: WebSocket) {
    ws.on("message", (data) => this.messages.push(JSON.parse(data.toString()) as LinkMessage));
  }

  static async open(b: BridgeProcess): Promise<IdeLinkClient> {
    const ws = new WebSocket(b.wsUrl, ["mcp"], { headers: { "x-claude-code-ide-authorization": b.token } });
    await new Promise((resolve, reject) => {
      ws.once("open", resolve);
      ws.once("error", reject);
    });
    const client = new IdeLinkClient(ws);
    await client.request("initialize", {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "claude-code", version: "e2e" },
    });
    ws.send(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }));
    ws.send(JSON.stringify({ jsonrpc: "2.0", method: "ide_connected", params: { pid: process.pid } }));
    return client;
  }

  call(name: string, args: Record<string, unknown>): Promise<LinkMessage> {
    return this.request("tools/call", { name, arguments: args }, 300_000);
  }

  async request(method: string, params: unknown, timeoutMs = 30_000): Promise<LinkMessage> {
    const id = this.nextId++;
    this.ws.send(JSON.stringify({ jsonrpc: "2.0", id, method, params }));
    return this.waitFor((m) => m.id === id, timeoutMs);
  }

  /** The first message that matches, polled until `timeoutMs` (the link's messages arrive on their own). */
  async waitFor(match: (m: LinkMessage) => boolean, timeoutMs: number): Promise<LinkMessage> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.messages.find(match);
      if (found !== undefined) return found;
      if (Date.now() > deadline)
        throw new Error(`IDE link: nothing matched within ${timeoutMs} ms; got ${JSON.stringify(this.messages).slice(0, 2000)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  close(): void {
    this.ws.close();
  }
}
