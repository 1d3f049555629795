// Keeps the shim connected: find the bridge (lock files, or the explicit port), connect, hand the
// socket to the relay, and after a drop do it again, with backoff from 1 s to 30 s plus jitter.
// A lock file appearing or changing wakes it at once, so a restarted bridge is picked up as soon
// as it has written its lock. Gives up after `giveUpMs` without a bridge; a refused token ends it.
import { CLIENT_DONE_REASON, CloseCode } from "../src/wire.ts";
import type { BridgeLink, ConnectOutcome } from "./bridge-link.ts";
import type { Target } from "./discovery.ts";
import type { ShimLog } from "./log.ts";
import type { Relay } from "./relay.ts";

export interface ConnectorOptions {
  /** Only attach() is used: each new socket is handed over. */
  relay: Pick<Relay, "attach">;
  log: ShimLog;
  /** The bridge to try now (lock discovery or the explicit port), or undefined when there is none. */
  find(previousPort: number | undefined): Promise<Target | undefined>;
  connect(target: Target): Promise<ConnectOutcome>;
  /** Starts watching for lock changes; returns the stop function. */
  watch(onChange: () => void): () => void;
  /** What to say while no bridge is found. */
  waitingMessage: string;
  /** Called while no bridge is found (spawning); may start one. */
  onNoBridge?(): void;
  /** Called on each successful connection, before the socket is handed to the relay. */
  onConnected?(target: Target): void;
  giveUpMs: number;
  initialBackoffMs: number;
  maxBackoffMs: number;
  /** Fatal end: gave up, or the token was refused. The connector has stopped when this is called. */
  onFatal(why: "gave-up" | "refused", message: string): void;
  random?: () => number;
}

type Wake = "timer" | "lock" | "stop";

export class Connector {
  private stopped = false;
  private wake: ((why: Wake) => void) | undefined;
  /** A lock changed since the last look: set even while not sleeping, so no change is missed. */
  private lockChanged = false;
  private link: BridgeLink | undefined;
  private stopWatching: (() => void) | undefined;
  private problem: string | undefined;

  constructor(private readonly opts: ConnectorOptions) {}

  /** Why the last attempt to connect failed ("port 4100: ECONNREFUSED"); undefined once connected. */
  get lastProblem(): string | undefined {
    return this.problem;
  }

  /** Runs until stop() or a fatal end. */
  async run(): Promise<void> {
    this.stopWatching = this.opts.watch(() => {
      this.lockChanged = true;
      this.wake?.("lock");
    });
    try {
      await this.loop();
    } finally {
      this.stopWatching?.();
    }
  }

  /**
   * Stops; an open socket is closed with CLIENT_DONE_REASON so the bridge ends our session at once.
   * Resolves when the close handshake is done (at most `waitMs`), so exiting does not cut it off.
   */
  stop(waitMs = 500): Promise<void> {
    this.stopped = true;
    this.wake?.("stop");
    const link = this.link;
    if (!link) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, waitMs);
      link.onClose(() => {
        clearTimeout(timer);
        resolve();
      });
      link.close(CloseCode.normal, CLIENT_DONE_REASON);
    });
  }

  private async loop(): Promise<void> {
    const { log } = this.opts;
    let unreachableSince = Date.now();
    let attempt = 0;
    let previousPort: number | undefined;
    let saidWaiting = false;
    while (!this.stopped) {
      if (Date.now() - unreachableSince >= this.opts.giveUpMs) {
        return this.fatal(
          "gave-up",
          `gave up: no bridge reachable for ${this.opts.giveUpMs / 1000} s (--give-up-after / CLAUDE_IDE_BRIDGE_SHIM_GIVE_UP_MS). ${this.opts.waitingMessage}`,
        );
      }
      this.lockChanged = false;
      const target = await this.opts.find(previousPort);
      if (this.stopped) return;
      if (!target) {
        this.problem = undefined;
        if (!saidWaiting) log.info(this.opts.waitingMessage);
        saidWaiting = true;
        this.opts.onNoBridge?.();
        await this.sleep(this.backoff(++attempt), unreachableSince);
        continue;
      }
      const outcome = await this.opts.connect(target);
      if (this.stopped) {
        if (outcome.ok) outcome.link.close(CloseCode.normal, CLIENT_DONE_REASON);
        return;
      }
      if (outcome.ok) {
        attempt = 0;
        saidWaiting = false;
        previousPort = target.port;
        this.problem = undefined;
        this.link = outcome.link;
        this.opts.onConnected?.(target);
        const closed = new Promise<number>((resolve) => outcome.link.onClose((code) => resolve(code)));
        log.info(`connected to the bridge on port ${target.port}`);
        await this.opts.relay.attach(outcome.link, { expectNotice: target.isBridge });
        const code = await closed;
        this.link = undefined;
        unreachableSince = Date.now();
        if (this.stopped) return;
        log.info(`bridge connection closed (code ${code}); reconnecting`);
        continue;
      }
      if (outcome.status === 401 || outcome.status === 403) {
        // A bridge restarted on the same port has a new token: only a lock that still holds the
        // token we were refused with (or an explicit token) makes this final.
        const again = target.fromLock ? await this.opts.find(target.port) : undefined;
        if (!target.fromLock || (again?.port === target.port && again.token === target.token)) {
          return this.fatal(
            "refused",
            `the bridge on port ${target.port} refused the token (HTTP ${outcome.status}: ${outcome.body || "no detail"}). ` +
              (target.fromLock
                ? "The lock file's token was refused; is another program using this port?"
                : "Check --token (claude-ide-bridge print-token)."),
          );
        }
        continue;
      }
      attempt += 1;
      const why =
        outcome.status === 0 ? `${"code" in outcome ? outcome.code : ""} ${outcome.body}`.trim() : `HTTP ${outcome.status} ${outcome.body}`;
      this.problem = `port ${target.port}: ${why}`;
      const delay = this.backoff(attempt);
      if (attempt === 1 || attempt % 5 === 0)
        log.info(`cannot reach the bridge on port ${target.port} (${why}); retrying in ${(delay / 1000).toFixed(1)} s`);
      else log.debug(`attempt ${attempt} on port ${target.port} failed (${why})`);
      await this.sleep(delay, unreachableSince);
    }
  }

  /** 1 s, 2 s, 4 s … 30 s, each ±20 % so many shims do not retry in step. */
  private backoff(attempt: number): number {
    const base = Math.min(this.opts.maxBackoffMs, this.opts.initialBackoffMs * 2 ** Math.min(attempt - 1, 20));
    return Math.round(base * (0.8 + 0.4 * (this.opts.random ?? Math.random)()));
  }

  /** Waits `ms` (never past the give-up deadline), or until a lock changes or stop(). */
  private sleep(ms: number, unreachableSince: number): Promise<Wake> {
    const left = unreachableSince + this.opts.giveUpMs - Date.now();
    if (this.lockChanged) return Promise.resolve("lock");
    return new Promise((resolve) => {
      const timer = setTimeout(() => done("timer"), Math.max(0, Math.min(ms, left)));
      const done = (why: Wake) => {
        clearTimeout(timer);
        this.wake = undefined;
        resolve(why);
      };
      this.wake = done;
    });
  }

  private fatal(why: "gave-up" | "refused", message: string): void {
    this.stopped = true;
    this.opts.onFatal(why, message);
  }
}
