// The debugged Node program's stdout and stderr. Node's inspector prints its own lines on the same
// stderr (where it listens, "Debugger attached.", "Waiting for the debugger to disconnect..."): the
// listening line gives the inspector's URL, and none of them reach the program's output. Bytes are
// counted so a stop can wait until what the program wrote before it stopped has been read: the pipe
// and the inspector's socket are two channels, and a pause may arrive before the pipe's last bytes.
import { forEachTextChunk } from "../../lib/text/text-chunks.ts";
const INSPECTOR_LINE =
  /^(Debugger listening on ws:|For help, see: https:\/\/nodejs\.org|Debugger attached\.|Waiting for the debugger to disconnect|Debugger ending on ws:)/;
const LISTENING = /^Debugger listening on (ws:\/\/127\.0\.0\.1:\d+\/[0-9a-f-]+)\s*$/m;

type Sink = (category: "stdout" | "stderr", text: string) => void;

export class ProgramOutput {
  private sink: Sink | undefined;
  private held: [category: "stdout" | "stderr", text: string][] = [];
  private readonly bytes = { stdout: 0, stderr: 0 };
  private readonly waiters = new Set<() => void>();
  /** The program's unfinished stderr line: held back until it ends (it may be the inspector's). */
  private partialStderr = "";
  private resolveUrl: (url: string) => void = () => {};
  /** The inspector's WebSocket URL, from its listening line. */
  readonly url = new Promise<string>((resolve) => {
    this.resolveUrl = resolve;
  });
  /** Resolves once both streams ended. */
  readonly done: Promise<void>;

  constructor(streams: { stdout: ReadableStream<Uint8Array>; stderr: ReadableStream<Uint8Array> }) {
    this.done = Promise.all([this.read(streams.stdout, "stdout"), this.read(streams.stderr, "stderr")]).then(() => this.flushPartial());
  }

  /** From now on output goes to `sink` (what came before first). */
  forward(sink: Sink): void {
    this.sink = sink;
    for (const [category, text] of this.held) sink(category, text);
    this.held = [];
  }

  /** Waits (at most `timeoutMs`) until the program's bytes written so far have been read. */
  caughtUp(written: { stdout: number; stderr: number }, timeoutMs: number): Promise<void> {
    // The unfinished line counts as read: the program wrote it, and it is shown once the wait ends.
    const ready = () => this.bytes.stdout >= written.stdout && this.bytes.stderr + utf8Length(this.partialStderr) >= written.stderr;
    if (ready()) {
      this.flushPartial();
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const check = () => {
        if (!ready()) return;
        finish();
      };
      const finish = () => {
        clearTimeout(timer);
        this.waiters.delete(check);
        this.flushPartial();
        resolve();
      };
      const timer = setTimeout(finish, timeoutMs);
      this.waiters.add(check);
    });
  }

  private read(stream: ReadableStream<Uint8Array>, category: "stdout" | "stderr"): Promise<void> {
    return forEachTextChunk(stream, (text, byteLength) => {
      if (category === "stdout") {
        this.bytes.stdout += byteLength;
        this.emit("stdout", text);
      } else this.stderr(text);
      for (const waiter of [...this.waiters]) waiter();
    });
  }

  /** Complete lines are checked for the inspector's; the program's partial line is counted as read. */
  private stderr(text: string): void {
    const joined = this.partialStderr + text;
    const cut = joined.lastIndexOf("\n") + 1;
    this.partialStderr = joined.slice(cut);
    let counted = 0;
    for (const line of joined.slice(0, cut).split(/(?<=\n)/)) {
      if (line === "") continue;
      if (INSPECTOR_LINE.test(line)) {
        const url = LISTENING.exec(line)?.[1];
        if (url !== undefined) this.resolveUrl(url);
        continue;
      }
      this.emit("stderr", line);
      counted += utf8Length(line);
    }
    this.bytes.stderr += counted;
  }

  private flushPartial(): void {
    if (this.partialStderr === "") return;
    this.bytes.stderr += utf8Length(this.partialStderr);
    this.emit("stderr", this.partialStderr);
    this.partialStderr = "";
  }

  /** The last of what the program printed, for an error message when it fails to start. */
  tail = "";

  private emit(category: "stdout" | "stderr", text: string): void {
    this.tail = (this.tail + text).slice(-2000);
    if (this.sink === undefined) this.held.push([category, text]);
    else this.sink(category, text);
  }
}

function utf8Length(text: string): number {
  return new TextEncoder().encode(text).byteLength;
}
