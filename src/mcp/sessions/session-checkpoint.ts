// Checkpoint of the socket sessions to `${CLAUDE_CONFIG_DIR:-~/.claude}/ide/checkpoint-<port>.json`
// (0600, beside the lock files; original-tools.md 3.5), restored when a bridge starts again on the
// same port: a shim that reconnects with its x-claude-code-session-id then finds its session
// initialized, with its protocol version, client info, log level and counters, so a restart does
// not cost Claude Code its session.
//
// Checked every `checkMs`: a session that appears, goes, or changes version, client or log level
// is written soon (a crash right after Claude Code connected must not lose it), but at most once
// per `minWriteIntervalMs`, so clients connecting and dropping many times a second cost one small
// write a second, not one per check; counters alone at most every `statsIntervalMs`; and the file
// is refreshed every `refreshMs`, so `savedAt` says how fresh it is even when nothing happens.
// The file holds at most the store's session bound, most recently active first, with client
// names clipped, so its size is bounded too. A checkpoint older than CHECKPOINT_MAX_AGE_MS is
// ignored, since no shim waits that long for its bridge.
import * as v from "valibot";
import type { DirEntry } from "../../ports/fs.ts";
import type { Runtime } from "../../ports/runtime.ts";
import { errorMessage, fsErrorCode } from "../../errors.ts";
import { lockDir } from "../../lock/lock-file.ts";
import type { Logger } from "../../log.ts";
import { join } from "../../lib/paths/posix-path.ts";
import { LOG_LEVELS } from "../../capabilities/log-levels.ts";
import type { CheckpointedSession, SessionStore } from "./session-store.ts";
import { SUPPORTED_PROTOCOL_VERSIONS } from "../protocol/versions.ts";

const CHECKPOINT_CHECK_MS = 250;
const CHECKPOINT_MIN_WRITE_INTERVAL_MS = 1_000;
const CHECKPOINT_STATS_INTERVAL_MS = 5_000;
const CHECKPOINT_REFRESH_MS = 60_000;
/** A shim gives up after 5 minutes by default; three times that covers a slow restart. */
export const CHECKPOINT_MAX_AGE_MS = 15 * 60_000;
const FORMAT_VERSION = 1;
/** Client names and versions are free text from `initialize`; the checkpoint keeps this much. */
const MAX_CLIENT_INFO_CHARS = 100;

const count = v.pipe(v.number(), v.integer(), v.minValue(0));
const CheckpointSchema = v.object({
  version: v.literal(FORMAT_VERSION),
  port: v.pipe(v.number(), v.integer()),
  savedAt: v.number(),
  sessions: v.array(
    v.object({
      clientId: v.string(),
      state: v.object({
        protocolVersion: v.picklist(SUPPORTED_PROTOCOL_VERSIONS),
        clientInfo: v.optional(v.object({ name: v.string(), version: v.optional(v.string()) })),
        logLevel: v.optional(v.picklist(LOG_LEVELS)),
        stats: v.object({ callCount: count, errorCount: count }),
        idePid: v.optional(v.pipe(v.number(), v.integer())),
      }),
    }),
  ),
});

export function checkpointPath(runtime: Runtime, port: number): string {
  return join(lockDir(runtime), `checkpoint-${port}.json`);
}

/** The sessions a recent checkpoint of `port` holds; none when it is missing, stale or unreadable. */
export async function readCheckpoint(
  runtime: Runtime,
  port: number,
  opts: { logger: Logger; now?: number },
): Promise<CheckpointedSession[]> {
  const path = checkpointPath(runtime, port);
  let text: string;
  try {
    text = await runtime.fs.readTextFile(path);
  } catch (err) {
    if (fsErrorCode(err) !== "ENOENT") opts.logger.warn(`cannot read the session checkpoint ${path}`, { error: errorMessage(err) });
    return [];
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    opts.logger.warn(`ignoring the session checkpoint ${path}: not JSON`);
    return [];
  }
  const parsed = v.safeParse(CheckpointSchema, json);
  if (!parsed.success) {
    opts.logger.warn(
      `ignoring the session checkpoint ${path}: ${v.getDotPath(parsed.issues[0]) ?? "top level"}: ${parsed.issues[0].message}`,
    );
    return [];
  }
  const age = (opts.now ?? Date.now()) - parsed.output.savedAt;
  if (parsed.output.port !== port || age > CHECKPOINT_MAX_AGE_MS) return [];
  return parsed.output.sessions;
}

/** Removes other ports' checkpoints too old to be restored (the bridge that wrote them is long gone). */
export async function cleanStaleCheckpoints(runtime: Runtime, opts: { now?: number } = {}): Promise<string[]> {
  const dir = lockDir(runtime);
  const now = opts.now ?? Date.now();
  let entries: DirEntry[];
  try {
    entries = await runtime.fs.readdir(dir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const entry of entries) {
    if (!entry.isFile || !/^checkpoint-\d+\.json$/.test(entry.name)) continue;
    const path = join(dir, entry.name);
    try {
      if (now - (await runtime.fs.lstat(path)).mtimeMs <= CHECKPOINT_MAX_AGE_MS) continue;
      await runtime.fs.rm(path);
      removed.push(path);
    } catch {
      // Gone already, or not ours to remove: either way nothing to do.
    }
  }
  return removed;
}

interface SessionCheckpointOptions {
  runtime: Runtime;
  port: number;
  store: Pick<SessionStore, "snapshot">;
  logger: Logger;
  checkMs?: number;
  minWriteIntervalMs?: number;
  statsIntervalMs?: number;
  refreshMs?: number;
  now?: () => number;
}

/** Writes the store's sessions to the checkpoint file while the bridge runs. */
export class SessionCheckpoint {
  readonly path: string;
  private timer: ReturnType<typeof setInterval> | undefined;
  private lastWritten: string | undefined;
  private lastShape: string | undefined;
  private lastWriteAt = 0;
  private lastError: string | undefined;
  private chain: Promise<void> = Promise.resolve();
  private readonly now: () => number;

  constructor(private readonly opts: SessionCheckpointOptions) {
    this.path = checkpointPath(opts.runtime, opts.port);
    this.now = opts.now ?? Date.now;
  }

  start(): void {
    if (this.timer !== undefined) return;
    this.timer = setInterval(() => void this.flush(), this.opts.checkMs ?? CHECKPOINT_CHECK_MS);
  }

  /** Writes the checkpoint if it is out of date (see the header); one write at a time. */
  flush(force = false): Promise<void> {
    this.chain = this.chain.then(() => this.write(force));
    return this.chain;
  }

  /** Stops the timer after a last write, so a restart on this port gets the sessions back. */
  async stop(): Promise<void> {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
    await this.flush(true);
  }

  private async write(force: boolean): Promise<void> {
    const sessions = this.opts.store.snapshot().map(clipClientInfo);
    const body = JSON.stringify(sessions);
    // By client id: sessions trading places in the recency order is not a change of shape.
    const byId = [...sessions].sort((a, b) => (a.clientId < b.clientId ? -1 : 1));
    const shape = JSON.stringify(byId.map(({ clientId, state: { stats: _stats, ...rest } }) => [clientId, rest]));
    const now = this.now();
    const since = now - this.lastWriteAt;
    const due =
      force ||
      (shape !== this.lastShape && since >= (this.opts.minWriteIntervalMs ?? CHECKPOINT_MIN_WRITE_INTERVAL_MS)) ||
      (body !== this.lastWritten && since >= (this.opts.statsIntervalMs ?? CHECKPOINT_STATS_INTERVAL_MS)) ||
      since >= (this.opts.refreshMs ?? CHECKPOINT_REFRESH_MS);
    if (!due) return;
    try {
      if (sessions.length === 0) {
        // Nothing to restore: no file (rather than an empty one left behind for every port used).
        if (this.lastWritten !== undefined) await this.opts.runtime.fs.rm(this.path, { force: true });
      } else {
        await this.opts.runtime.fs.mkdir(lockDir(this.opts.runtime), { recursive: true, mode: 0o700 });
        const content = JSON.stringify({ version: FORMAT_VERSION, port: this.opts.port, savedAt: now, sessions });
        await this.opts.runtime.fs.writeFileAtomic(this.path, content, { mode: 0o600 });
      }
      this.lastWritten = sessions.length === 0 ? undefined : body;
      this.lastShape = shape;
      this.lastWriteAt = now;
      this.lastError = undefined;
    } catch (err) {
      const message = errorMessage(err);
      // Once per distinct failure, not every interval.
      if (message !== this.lastError) this.opts.logger.warn(`cannot write the session checkpoint ${this.path}`, { error: message });
      this.lastError = message;
    }
  }
}

function clipClientInfo(session: CheckpointedSession): CheckpointedSession {
  const info = session.state.clientInfo;
  if (info === undefined) return session;
  const clipped: { name: string; version?: string } = { name: info.name.slice(0, MAX_CLIENT_INFO_CHARS) };
  if (info.version !== undefined) clipped.version = info.version.slice(0, MAX_CLIENT_INFO_CHARS);
  return { clientId: session.clientId, state: { ...session.state, clientInfo: clipped } };
}
