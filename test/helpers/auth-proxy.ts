// A loopback HTTP proxy that adds `Authorization: Bearer <token>` and forwards everything else
// untouched: method, path, every header as received (Host and Origin included, so DNS-rebinding
// checks still see what the client sent), and bodies streamed both ways (SSE included).
// For clients that cannot send auth headers, such as the MCP conformance suite.
import { createServer, request, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";

export interface AuthProxy {
  port: number;
  url: string;
  close(): Promise<void>;
}

export async function startAuthProxy(target: { port: number; token: string }): Promise<AuthProxy> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    // rawHeaders keeps duplicates and spelling; drop any client Authorization and add ours.
    const headers: string[] = [];
    for (let i = 0; i < req.rawHeaders.length; i += 2) {
      const name = req.rawHeaders[i] ?? "";
      if (name.toLowerCase() === "authorization") continue;
      headers.push(name, req.rawHeaders[i + 1] ?? "");
    }
    headers.push("Authorization", `Bearer ${target.token}`);

    const upstream = request({ host: "127.0.0.1", port: target.port, method: req.method, path: req.url, headers, setHost: false }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.statusMessage, up.rawHeaders);
      res.flushHeaders();
      up.on("data", (chunk: Buffer) => res.write(chunk));
      up.on("end", () => res.end());
      up.on("error", () => res.destroy());
    });
    upstream.on("error", (err) => {
      if (!res.headersSent) {
        res.writeHead(502, { "content-type": "text/plain" });
        res.end(`auth proxy: ${err.message}`);
      } else {
        res.destroy();
      }
    });
    // A client that goes away (e.g. closes an SSE stream) closes the upstream request too.
    res.on("close", () => upstream.destroy());
    req.pipe(upstream);
  });
  server.on("connection", (s: Socket) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
