// LanguageServerLauncher.start for every runtime: the server is spawned through the runtime's own
// spawn (own process group, piped stdio) and framed by vscode-jsonrpc's reader and writer, so the
// core sees only the LspConnection of src/ports/lsp.ts. Server->client requests without a handler
// are answered with -32601, as vscode-jsonrpc does by default.
import type { CancellationToken } from "vscode-jsonrpc/node";
import { forEachTextChunk } from "../../src/lib/text/text-chunks.ts";
import { LspRequestError, type LspConnection } from "../../src/ports/lsp.ts";
import type { Child, SpawnOptions } from "../../src/ports/spawn.ts";
import { jsonRpc } from "./json-rpc.ts";
import { readableForJsonRpc, writableForJsonRpc } from "./streams.ts";

type Spawn = (cmd: string, args: string[], opts: SpawnOptions) => Child;

/** Enough of a crashing server's last words to say why, not its whole log. */
const STDERR_TAIL_CHARS = 4096;
/** How long an exit waits for the rest of stderr. */
const STDERR_AFTER_EXIT_MS = 250;

export function startLanguageServer(
  spawn: Spawn,
  launch: { command: string; args: string[]; cwd: string; env?: Record<string, string> },
): LspConnection {
  const { command, args, ...opts } = launch;
  const child = spawn(command, args, {
    cwd: opts.cwd,
    ...(opts.env === undefined ? {} : { env: opts.env }),
    stdin: "pipe",
    processGroup: true,
  });
  const stdin = child.stdin;
  if (stdin === undefined) throw new LspRequestError("closed", "the language server has no stdin");
  let stderr = "";
  const stderrEnded = forEachTextChunk(child.stderr, (text) => {
    stderr = (stderr + text).slice(-STDERR_TAIL_CHARS);
  });
  const { CancellationTokenSource, createMessageConnection, ReadableStreamMessageReader, WriteableStreamMessageWriter } = jsonRpc();
  const connection = createMessageConnection(
    new ReadableStreamMessageReader(readableForJsonRpc(child.stdout)),
    new WriteableStreamMessageWriter(writableForJsonRpc(stdin)),
  );
  let closed = false;
  // The exit is reported once what the server said on stderr has been read (a dying server's last
  // words explain it), or after a short bound when a leftover still holds the pipe.
  const exited = child.exited
    .catch(() => -1)
    .then(async (code) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([stderrEnded, new Promise((resolve) => (timer = setTimeout(resolve, STDERR_AFTER_EXIT_MS)))]);
      clearTimeout(timer);
      return code;
    });
  void exited.then(() => {
    closed = true;
    connection.dispose();
  });
  connection.onError(() => {});
  connection.listen();
  const kill = () => {
    try {
      child.kill("SIGKILL", { group: true });
    } catch {
      // Gone already.
    }
  };
  return {
    pid: child.pid,
    async request(method, params, signal) {
      if (closed) throw new LspRequestError("closed", `the language server has exited; ${method} was not sent`);
      const cancel = new CancellationTokenSource();
      // The caller stops waiting at once: a server may answer a cancelled request late, or never.
      let onAbort = () => {};
      const aborted = new Promise<never>((_resolve, reject) => {
        onAbort = () => {
          cancel.cancel();
          reject(new LspRequestError(-32800, `${method} was cancelled`));
        };
      });
      if (signal?.aborted === true) onAbort();
      signal?.addEventListener("abort", onAbort, { once: true });
      try {
        const answer = connection.sendRequest(method, params, cancel.token as CancellationToken);
        answer.catch(() => {});
        return await Promise.race([raceExit(answer, exited, method), aborted]);
      } catch (err) {
        throw toLspError(err, method);
      } finally {
        signal?.removeEventListener("abort", onAbort);
        cancel.dispose();
      }
    },
    async notify(method, params) {
      if (closed) return;
      await connection.sendNotification(method, params).catch(() => {});
    },
    onNotification(method, handler) {
      connection.onNotification(method, (params: unknown) => handler(params));
    },
    onRequest(method, handler) {
      connection.onRequest(method, async (params: unknown, token: CancellationToken) => {
        const abort = new AbortController();
        token.onCancellationRequested(() => abort.abort());
        return handler(params, abort.signal);
      });
    },
    stderrTail: () => stderr,
    kill,
    async close() {
      closed = true;
      connection.dispose();
      kill();
      await exited;
    },
    exited,
  };
}

/** A request to a server that dies without answering would otherwise wait for ever. */
function raceExit<T>(request: Promise<T>, exited: Promise<number>, method: string): Promise<T> {
  return Promise.race([
    request,
    exited.then((code) =>
      Promise.reject(new LspRequestError("closed", `the language server exited (code ${code}) before answering ${method}`)),
    ),
  ]);
}

function toLspError(err: unknown, method: string): LspRequestError {
  if (err instanceof LspRequestError) return err;
  if (err instanceof jsonRpc().ResponseError) return new LspRequestError(err.code, `${method}: ${err.message}`);
  return new LspRequestError("closed", `${method}: ${err instanceof Error ? err.message : String(err)}`);
}
