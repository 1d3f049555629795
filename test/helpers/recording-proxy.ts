// A loopback HTTP proxy that forwards everything untouched (method, path, headers, bodies both
// ways, SSE included) and records the JSON-RPC messages clients POST, with the MCP headers they
// came with: the method sequence a real client (Claude Code) sends, seen from outside the bridge.
import { createServer, request, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";

export interface RecordedMessage {
  method: string | undefined;
  id: unknown;
  params: Record<string, unknown> | undefined;
  /** The HTTP method and the mcp-* headers of the POST (lower-case names). */
  http: string;
  headers: Record<string, string>;
  /** The bridge's HTTP status for it. */
  status?: number;
}

export interface RecordingProxy {
  url: string;
  messages: RecordedMessage[];
  close(): Promise<void>;
}

export async function startRecordingProxy(target: { port: number }): Promise<RecordingProxy> {
  const sockets = new Set<Socket>();
  const messages: RecordedMessage[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      let record: RecordedMessage | undefined;
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (k.startsWith("mcp-") && typeof v === "string") headers[k] = v;
      try {
        const json = body.length > 0 ? (JSON.parse(body.toString("utf8")) as Record<string, unknown>) : undefined;
        record = {
          method: json?.method as string | undefined,
          id: json?.id,
          params: json?.params as Record<string, unknown>,
          http: req.method ?? "",
          headers,
        };
      } catch {
        record = { method: undefined, id: undefined, params: undefined, http: req.method ?? "", headers };
      }
      messages.push(record);
      const upstream = request({ host: "127.0.0.1", port: target.port, method: req.method, path: req.url, headers: req.headers }, (up) => {
        if (record) record.status = up.statusCode;
        res.writeHead(up.statusCode ?? 502, up.statusMessage, up.rawHeaders);
        res.flushHeaders();
        up.on("data", (chunk: Buffer) => res.write(chunk));
        up.on("end", () => res.end());
        up.on("error", () => res.destroy());
      });
      upstream.on("error", (err) => {
        if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain" }).end(`recording proxy: ${err.message}`);
        else res.destroy();
      });
      res.on("close", () => upstream.destroy());
      upstream.end(body);
    });
  });
  server.on("connection", (s: Socket) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    messages,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
