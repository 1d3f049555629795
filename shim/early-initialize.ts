// The client's initialize answered by the shim itself while the bridge it started is still starting
// (src/startup/predicted-initialize.ts computes the bridge's answer): the relay then replays that
// initialize to the bridge before anything else, and checks that the bridge said the same. Only for
// a bridge this shim started with a configuration it can read; otherwise the relay waits as before.
import type { ShimLog } from "./log.ts";
import type { ClientMessage } from "./messages.ts";

/** The bridge's result for an initialize or server/discover with these params, when it can be known. */
export type PredictAnswer = (method: "initialize" | "server/discover", params: unknown) => Record<string, unknown> | undefined;

interface EarlyOptions {
  writeClient(line: string): boolean;
  log: ShimLog;
  /** The answer given, as the client's initialize result from now on. */
  onAnswered(result: Record<string, unknown>): void;
}

export class EarlyInitialize {
  private predict: PredictAnswer | undefined;
  /** The answer given, until the bridge's own answer to the replayed initialize is compared with it. */
  private given: string | undefined;

  constructor(private readonly opts: EarlyOptions) {}

  /** From now on, until a bridge is reached, the first initialize is answered with `predict`'s answer when it has one. */
  enable(predict: PredictAnswer): void {
    this.predict = predict;
  }

  /** A bridge was reached: a later initialize is the bridge's to answer. */
  disable(): void {
    this.predict = undefined;
  }

  /** Answers `message` when it is server/discover or the first initialize and there is a prediction for it; false when the bridge must. */
  tryAnswer(message: ClientMessage): boolean {
    if (message.kind !== "request") return false;
    if (message.method === "server/discover") {
      // Stateless (MCP 2026-07-28): nothing to replay, and each probe is answered alike.
      const result = this.predict?.(message.method, message.params);
      if (result !== undefined) this.opts.writeClient(JSON.stringify({ jsonrpc: "2.0", id: message.id, result }));
      return result !== undefined;
    }
    if (message.method !== "initialize" || this.given !== undefined) return false;
    const result = this.predict?.(message.method, message.params);
    if (result === undefined) return false;
    this.given = JSON.stringify(result);
    this.opts.onAnswered(result);
    this.opts.writeClient(JSON.stringify({ jsonrpc: "2.0", id: message.id, result }));
    return true;
  }

  /** Whether an answer was given that the bridge has not confirmed yet (its initialize is replayed then). */
  get unconfirmed(): boolean {
    return this.given !== undefined;
  }

  /**
   * Compares the bridge's answer to the replayed initialize with the one given. Should they differ
   * (they are computed by the same code, so only a bug would make them), the client is told to list
   * the tools again, and the shim's log says what differed.
   */
  confirm(answer: Record<string, unknown> | undefined): void {
    const given = this.given;
    this.given = undefined;
    this.predict = undefined;
    const got = answer === undefined ? undefined : JSON.stringify(answer.result ?? answer.error);
    if (got === given) return;
    this.opts.log.warn(
      got === undefined
        ? "the bridge did not answer the replayed initialize"
        : `the bridge answered initialize with ${got.slice(0, 400)}, not ${given?.slice(0, 400)}; the client was told to list the tools again`,
    );
    this.opts.writeClient(JSON.stringify({ jsonrpc: "2.0", method: "notifications/tools/list_changed" }));
  }
}
