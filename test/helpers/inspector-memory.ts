// What a Node child process still holds after a full garbage collection, read through its inspector
// (started with `--inspect=127.0.0.1:0`, e.g. in NODE_OPTIONS). Unlike the resident set, which moves
// with when V8 chooses to collect and give pages back (later on a loaded machine), this counts only
// what is reachable: a bound on it fails on a leak and on nothing else.
import WebSocket from "ws";

const LISTENING = /Debugger listening on (ws:\/\/127\.0\.0\.1:\d+\/[0-9a-f-]+)/;

export const INSPECT_OPTION = "--inspect=127.0.0.1:0";

export interface RetainedMemory {
  /** The JavaScript heap's live objects, in MiB. */
  heapMiB: number;
  /** Memory outside the heap owned by live objects (buffers, array buffers), in MiB. */
  externalMiB: number;
}

export interface InspectedProcess {
  /** Collects garbage, then reads process.memoryUsage() inside the process. */
  retained(): Promise<RetainedMemory>;
  close(): void;
}

/** Connects to the inspector whose address the process printed to `stderr`. */
export async function inspectProcess(stderr: string): Promise<InspectedProcess> {
  const url = LISTENING.exec(stderr)?.[1];
  if (url === undefined) throw new Error(`the process printed no inspector address; its stderr:\n${stderr}`);
  const socket = new WebSocket(url);
  await new Promise<void>((resolve, reject) => {
    socket.once("open", () => resolve());
    socket.once("error", reject);
  });
  let nextId = 1;
  const waiting = new Map<number, { resolve(result: unknown): void; reject(err: Error): void }>();
  socket.on("message", (data) => {
    const message = JSON.parse(String(data)) as { id?: number; result?: unknown; error?: { message: string } };
    const call = message.id === undefined ? undefined : waiting.get(message.id);
    if (call === undefined || message.id === undefined) return;
    waiting.delete(message.id);
    if (message.error) call.reject(new Error(message.error.message));
    else call.resolve(message.result);
  });
  const send = (method: string, params: Record<string, unknown> = {}) =>
    new Promise<unknown>((resolve, reject) => {
      const id = nextId++;
      waiting.set(id, { resolve, reject });
      socket.send(JSON.stringify({ id, method, params }));
    });
  return {
    async retained() {
      await send("HeapProfiler.collectGarbage");
      const result = (await send("Runtime.evaluate", {
        expression: "JSON.stringify(process.memoryUsage())",
        returnByValue: true,
      })) as { result: { value: string } };
      const usage = JSON.parse(result.result.value) as { heapUsed: number; external: number };
      return { heapMiB: usage.heapUsed / 2 ** 20, externalMiB: usage.external / 2 ** 20 };
    },
    close: () => socket.close(),
  };
}
