// The adapter side of a DAP link for an adapter that runs inside the bridge (the Node inspector's
// translator): the same framed bytes a process adapter would write, so DapConnection, DebugSession
// and the tools treat it exactly like debugpy or delve. Requests are answered in arrival order of
// their completion; a handler's thrown Error becomes a failed response carrying its message
// (an AdapterRefusal's code and suggestion too).
import type { DebugProtocol } from "@vscode/debugprotocol";
import type { ByteDuplex } from "./dap-connection.ts";
import { encodeMessage, MessageReader } from "./dap-framing.ts";
import { AdapterRefusal, refusalBody } from "./adapter-refusal.ts";

export type RequestHandler = (command: string, args: Record<string, unknown>) => Promise<unknown>;

export class InProcessEndpoint {
  readonly io: ByteDuplex;
  private seq = 1;
  private controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  private ended = false;

  constructor(handler: RequestHandler, onClientGone: () => void) {
    const messages = new MessageReader();
    this.io = {
      readable: new ReadableStream<Uint8Array>({
        start: (controller) => {
          this.controller = controller;
        },
        cancel: () => {
          this.ended = true;
          onClientGone();
        },
      }),
      writable: new WritableStream<Uint8Array>({
        write: (chunk) => {
          for (const message of messages.push(chunk)) void this.answer(message as DebugProtocol.Request, handler);
        },
        close: onClientGone,
        abort: onClientGone,
      }),
    };
  }

  event(event: string, body?: unknown): void {
    this.write({ type: "event", event, ...(body === undefined ? {} : { body }) });
  }

  /** Ends the adapter's side: the client reads what was sent, then the end. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.controller?.close();
  }

  private async answer(request: DebugProtocol.Request, handler: RequestHandler): Promise<void> {
    if (request.type !== "request") return;
    const base = { type: "response", request_seq: request.seq, command: request.command };
    try {
      const body = await handler(request.command, (request.arguments ?? {}) as Record<string, unknown>);
      this.write({ ...base, success: true, ...(body === undefined ? {} : { body }) });
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      this.write({ ...base, success: false, message, ...(err instanceof AdapterRefusal ? { body: refusalBody(err) } : {}) });
    }
  }

  private write(message: Record<string, unknown>): void {
    if (this.ended) return;
    this.controller?.enqueue(encodeMessage({ seq: this.seq++, ...message }));
  }
}
