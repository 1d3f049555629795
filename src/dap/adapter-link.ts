// How the bridge talks to a started debug adapter: over its stdio (debugpy, lldb-dap), or over a TCP
// port the adapter prints once it listens (delve's `dlv dap` has no stdio mode). An adapter that
// runs the program with its own stdio (delve) passes the program's output through its stdout and
// stderr: the link hands those to the session's output log once the session exists.
import { forEachTextChunk } from "../lib/text/text-chunks.ts";
import type { Child } from "../ports/spawn.ts";
import type { TcpConnector } from "../ports/tcp.ts";
import type { ByteDuplex } from "./dap-connection.ts";
import type { AdapterSpec } from "./debug-adapters.ts";

const STDERR_TAIL = 4096;

export interface AdapterLink {
  readonly io: ByteDuplex;
  /** The adapter's last stderr, for an error message when it fails to start. */
  stderrTail(): string;
  /** From now on (and what came before), the program's output the adapter's stdio carried goes to `append`. */
  forwardOutput(append: (category: string, text: string) => void): void;
}

export async function openLink(
  child: Child,
  spec: AdapterSpec,
  opts: { tcp: TcpConnector | undefined; timeoutMs: number; signal?: AbortSignal | undefined },
): Promise<AdapterLink> {
  const forwarded = spec.listens?.programOutput === true;
  const stderr = new StreamTap(child.stderr, "stderr", forwarded);
  if (spec.listens === undefined) {
    const stdin = child.stdin;
    if (stdin === undefined) throw new Error("The runtime gave the adapter no stdin");
    return { io: { readable: child.stdout, writable: stdin }, stderrTail: () => stderr.tail, forwardOutput: (a) => stderr.forward(a) };
  }
  if (opts.tcp === undefined) throw new Error(`${spec.label} listens on a TCP port, and this runtime gives the bridge no TCP connections`);
  const stdout = new StreamTap(child.stdout, "stdout", forwarded);
  const port = await stdout.waitFor(spec.listens.pattern, { timeoutMs: opts.timeoutMs, exited: child.exited, signal: opts.signal });
  // Loopback only: the adapter was told to listen there, and nothing it prints may point the bridge elsewhere.
  const socket = await opts.tcp.connect("127.0.0.1", port, { timeoutMs: opts.timeoutMs });
  return {
    io: { readable: socket.readable, writable: socket.writable },
    stderrTail: () => stderr.tail,
    forwardOutput: (append) => {
      stdout.forward(append);
      stderr.forward(append);
    },
  };
}

/** Reads a stream to its end, keeping a tail, matching a line, and forwarding text once asked to. */
class StreamTap {
  tail = "";
  private held: string[] = [];
  private append: ((category: string, text: string) => void) | undefined;
  private matchers = new Set<(text: string) => void>();
  private ended = false;

  constructor(
    stream: ReadableStream<Uint8Array>,
    private readonly category: string,
    private readonly keepForOutput: boolean,
  ) {
    void this.read(stream);
  }

  forward(append: (category: string, text: string) => void): void {
    if (!this.keepForOutput) return;
    this.append = append;
    for (const text of this.held) append(this.category, text);
    this.held = [];
  }

  /** The port in the first line matching `pattern` (its first group), or a rejection saying why none came. */
  waitFor(pattern: RegExp, opts: { timeoutMs: number; exited: Promise<number>; signal?: AbortSignal | undefined }): Promise<number> {
    return new Promise<number>((resolve, reject) => {
      let seen = "";
      const timer = setTimeout(() => finish(new Error(`it did not say it was listening within ${opts.timeoutMs} ms`)), opts.timeoutMs);
      const onAbort = () => finish(new Error("cancelled"));
      const finish = (result: number | Error) => {
        clearTimeout(timer);
        this.matchers.delete(matcher);
        opts.signal?.removeEventListener("abort", onAbort);
        // What the adapter printed up to its listening line is its own, not the program's.
        if (typeof result === "number") {
          this.held = [];
          resolve(result);
        } else reject(result);
      };
      const matcher = (text: string) => {
        seen = (seen + text).slice(-STDERR_TAIL);
        const port = Number(pattern.exec(seen)?.[1]);
        if (Number.isInteger(port) && port > 0 && port < 65536) finish(port);
      };
      this.matchers.add(matcher);
      opts.signal?.addEventListener("abort", onAbort, { once: true });
      void opts.exited.then(
        (code) => finish(new Error(`it exited (code ${code}) before listening`)),
        () => finish(new Error("it could not be started")),
      );
      if (this.ended) finish(new Error("its output ended before it said it was listening"));
    });
  }

  private async read(stream: ReadableStream<Uint8Array>): Promise<void> {
    await forEachTextChunk(stream, (text) => {
      this.tail = (this.tail + text).slice(-STDERR_TAIL);
      if (this.append !== undefined) this.append(this.category, text);
      else if (this.keepForOutput) this.held.push(text);
      for (const matcher of [...this.matchers]) matcher(text);
    });
    this.ended = true;
  }
}
