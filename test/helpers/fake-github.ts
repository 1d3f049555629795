// GitHub's REST API as far as the github tools' real `gh` calls it, on https://127.0.0.1:<port>
// with a certificate made by openssl for the test: gh treats a host other than github.com as
// GitHub Enterprise (REST under /api/v3/, token from GH_ENTERPRISE_TOKEN) and insists on https,
// and Go's TLS trusts the certificate through SSL_CERT_FILE. Every request is recorded; one
// without a token gets 401, as a private repository's would.
import { execFile } from "node:child_process";
import { createServer, type Server } from "node:https";
import { mkdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";

export interface RecordedRequest {
  method: string;
  /** Path below /api/v3, e.g. "/repos/acme/widgets/issues". */
  path: string;
  query: Record<string, string>;
  accept: string;
  authorization: string;
  body: unknown;
}

export interface Reply {
  status?: number;
  json?: unknown;
  text?: string;
  bytes?: Buffer;
  headers?: Record<string, string>;
}

export type Handler = (req: RecordedRequest, host: string) => Reply;

export interface FakeGitHub {
  readonly host: string;
  readonly certFile: string;
  readonly requests: RecordedRequest[];
  /** Answers `METHOD /path` (a string, or a pattern for paths with ids). */
  on(method: string, path: string | RegExp, handler: Handler | Reply): void;
  /** The environment that points gh at this server for repository acme/widgets. */
  env(configDir: string, opts?: { token?: boolean }): Record<string, string>;
  close(): Promise<void>;
}

export async function startFakeGitHub(dir: string): Promise<FakeGitHub> {
  await mkdir(dir, { recursive: true });
  const key = join(dir, "key.pem");
  const certFile = join(dir, "cert.pem");
  await promisify(execFile)("openssl", [
    "req",
    "-x509",
    "-newkey",
    "rsa:2048",
    "-nodes",
    "-keyout",
    key,
    "-out",
    certFile,
    "-days",
    "1",
    "-subj",
    "/CN=127.0.0.1",
    "-addext",
    "subjectAltName=IP:127.0.0.1",
  ]);
  const routes: { method: string; path: string | RegExp; handler: Handler }[] = [];
  const requests: RecordedRequest[] = [];
  let host = "";
  const server: Server = createServer({ key: await readFile(key), cert: await readFile(certFile) }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", `https://${host}`);
      const raw = Buffer.concat(chunks).toString("utf8");
      const recorded: RecordedRequest = {
        method: req.method ?? "GET",
        path: url.pathname.replace(/^\/api\/v3/, ""),
        query: Object.fromEntries(url.searchParams),
        accept: String(req.headers.accept ?? ""),
        authorization: String(req.headers.authorization ?? ""),
        body: raw === "" ? undefined : (JSON.parse(raw) as unknown),
      };
      requests.push(recorded);
      const route = routes.find(
        (r) => r.method === recorded.method && (typeof r.path === "string" ? r.path === recorded.path : r.path.test(recorded.path)),
      );
      // Like GitHub for a private repository: nothing without a token.
      const reply: Reply =
        recorded.authorization === ""
          ? { status: 401, json: { message: "Requires authentication", documentation_url: "https://docs.github.com/rest" } }
          : route === undefined
            ? { status: 404, json: { message: "Not Found", documentation_url: "https://docs.github.com/rest" } }
            : route.handler(recorded, host);
      const body = reply.bytes ?? Buffer.from(reply.text ?? JSON.stringify(reply.json ?? {}), "utf8");
      res.writeHead(reply.status ?? 200, {
        "content-type":
          reply.text !== undefined
            ? "text/plain; charset=utf-8"
            : reply.bytes !== undefined
              ? "application/zip"
              : "application/json; charset=utf-8",
        ...reply.headers,
      });
      res.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  host = `127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}`;
  return {
    host,
    certFile,
    requests,
    on(method, path, handler) {
      routes.unshift({ method, path, handler: typeof handler === "function" ? handler : () => handler });
    },
    env(configDir, opts = {}) {
      return {
        GH_HOST: host,
        GH_REPO: `${host}/acme/widgets`,
        SSL_CERT_FILE: certFile,
        GH_CONFIG_DIR: configDir,
        XDG_CACHE_HOME: join(configDir, "cache"),
        XDG_STATE_HOME: join(configDir, "state"),
        XDG_DATA_HOME: join(configDir, "data"),
        TMPDIR: join(configDir, "tmp"),
        ...(opts.token === false ? {} : { GH_ENTERPRISE_TOKEN: "test-token-0123" }),
      };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
