// Whether a language server answers: started through the Runtime port with a piped stdin, sent
// an LSP `initialize` (Content-Length framing, LSP 3.17 base protocol), and given a few seconds
// to reply. Its whole process group is killed afterwards (typescript-language-server starts
// tsserver, gopls may fork). For doctor: "found" is not "working".
import { errorMessage } from "../errors.ts";
import type { Runtime } from "../runtime.ts";
import { concatBytes } from "../text/bytes.ts";

export type LspProbe = { ok: true; ms: number; server: string | undefined } | { ok: false; why: string };

const MAX_STDERR_CHARS = 500;

export async function probeLanguageServer(runtime: Pick<Runtime, "spawn">, command: { cmd: string; args: string[] }, opts: { cwd: string; timeoutMs: number }): Promise<LspProbe> {
  const started = Date.now();
  let child;
  try {
    child = runtime.spawn(command.cmd, command.args, { cwd: opts.cwd, stdin: "pipe", processGroup: true });
  } catch (err) {
    return { ok: false, why: `could not start: ${errorMessage(err)}` };
  }
  const stderr = { text: "" };
  const stderrDone = drainText(child.stderr, stderr);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<LspProbe>((resolve) => {
    timer = setTimeout(() => resolve({ ok: false, why: `no answer to initialize within ${opts.timeoutMs / 1000} s` }), opts.timeoutMs);
  });
  const exited = child.exited.then((code): LspProbe => ({ ok: false, why: `exited with code ${code} before answering initialize` }));
  const answered = (async (): Promise<LspProbe> => {
    const writer = child.stdin?.getWriter();
    if (!writer) return { ok: false, why: "no stdin" };
    await writer.write(frame({ jsonrpc: "2.0", id: 1, method: "initialize", params: initializeParams(opts.cwd) }));
    const reply = await readResponse(child.stdout, 1);
    // Output closed: a dying server's exit code (and stderr) says more, and comes a moment later.
    if (reply === undefined) return Promise.race([exited, timeout]);
    if ("error" in reply) return { ok: false, why: `answered initialize with an error: ${JSON.stringify(reply.error).slice(0, 200)}` };
    return { ok: true, ms: Date.now() - started, server: serverName(reply.result) };
    // A write that fails (EPIPE) means the server died: its exit says more than the pipe.
  })().catch((err: unknown) => Promise.race([exited, timeout, new Promise<LspProbe>((resolve) => setTimeout(() => resolve({ ok: false, why: errorMessage(err) }), 1_000))]));
  try {
    const result = await Promise.race([answered, exited, timeout]);
    if (result.ok) return result;
    // After an exit its stderr ends too; after a timeout, what came so far.
    if (result.why.startsWith("exited")) await stderrDone;
    // The first lines say what went wrong; a backtrace below them does not.
    const text = stderr.text.split("\n").map((l) => l.trim()).filter((l) => l !== "").slice(0, 2).join(" | ").slice(0, MAX_STDERR_CHARS);
    return text ? { ok: false, why: `${result.why}: ${text}` } : result;
  } finally {
    clearTimeout(timer);
    try {
      child.kill("SIGKILL", { group: true });
    } catch {
      // Gone already.
    }
  }
}

function initializeParams(root: string): Record<string, unknown> {
  const uri = `file://${root.split("/").map(encodeURIComponent).join("/")}`;
  return { processId: null, rootUri: uri, workspaceFolders: [{ uri, name: "doctor" }], capabilities: {}, clientInfo: { name: "claude-ide-bridge doctor" } };
}

function frame(message: unknown): Uint8Array {
  const body = new TextEncoder().encode(JSON.stringify(message));
  const head = new TextEncoder().encode(`Content-Length: ${body.byteLength}\r\n\r\n`);
  const out = new Uint8Array(head.byteLength + body.byteLength);
  out.set(head);
  out.set(body, head.byteLength);
  return out;
}

type Reply = { result: unknown } | { error: unknown };

/** Reads framed messages until the response with `id` (servers may log or ask things first). */
async function readResponse(stream: ReadableStream<Uint8Array>, id: number): Promise<Reply | undefined> {
  const reader = stream.getReader();
  let buffer: Uint8Array = new Uint8Array(0);
  const decoder = new TextDecoder();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return undefined;
      buffer = concatBytes([buffer, value]);
      for (;;) {
        const text = decoder.decode(buffer.subarray(0, Math.min(buffer.byteLength, 1024)));
        const end = text.indexOf("\r\n\r\n");
        if (end === -1) break;
        const length = Number(/content-length:\s*(\d+)/i.exec(text.slice(0, end))?.[1]);
        const start = new TextEncoder().encode(text.slice(0, end + 4)).byteLength;
        if (!Number.isFinite(length) || buffer.byteLength < start + length) break;
        const message: unknown = JSON.parse(decoder.decode(buffer.subarray(start, start + length)));
        buffer = buffer.slice(start + length);
        if (typeof message === "object" && message !== null && "id" in message && message.id === id && !("method" in message)) {
          return "error" in message ? { error: message.error } : { result: "result" in message ? message.result : undefined };
        }
      }
    }
  } finally {
    reader.releaseLock();
  }
}

function serverName(result: unknown): string | undefined {
  if (typeof result !== "object" || result === null || !("serverInfo" in result)) return undefined;
  const info = result.serverInfo;
  if (typeof info !== "object" || info === null || !("name" in info) || typeof info.name !== "string") return undefined;
  // gopls puts a whole JSON build report in `version`: only a short one is worth showing.
  return "version" in info && typeof info.version === "string" && info.version.length <= 40 ? `${info.name} ${info.version}` : info.name;
}

async function drainText(stream: ReadableStream<Uint8Array>, into: { text: string }): Promise<void> {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      // The start is what doctor shows; keep a little of it, not the whole stream.
      if (into.text.length < 4 * MAX_STDERR_CHARS) into.text += decoder.decode(value, { stream: true });
    }
  } catch {
    // The stream broke with the process: what came is enough.
  }
}
