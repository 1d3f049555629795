// The documents one server has open, kept equal to the files on disk: an answer about an old copy
// would send the model to lines that have moved. Every request on a file checks it first
// (re-reading it through the jail unless its key proves it unchanged) and sends didOpen or a full
// didChange when it differs, so a change made outside the bridge is seen by the very next call; the
// watcher (workspace-watcher.ts) re-syncs open files that change between calls. At most MAX_OPEN stay open,
// least recently used closed first: a server keeps analysing what is open.
//
// Re-reading every open file on every request costs an open, an fstat, a realpath and the whole
// file's bytes per call; a file unchanged since it was read is known from one lstat instead (its
// DiskKey, below), and only a changed key costs the read.
import type { FileStat } from "../ports/fs.ts";
import type { LspConnection } from "../ports/lsp.ts";
import { toFileUri } from "../lib/paths/file-uri.ts";
import type { WorkspacePath } from "../security/jail/workspace-path.ts";

const MAX_OPEN = 64;
/**
 * A file modified this close to the moment its key was taken may be written again within the same
 * mtime tick, same size, same inode (an in-place rewrite): its key proves nothing, so it is read
 * on every sync until it has been quiet this long. Filesystems keep mtimes from a coarse clock
 * (ext4: a scheduler tick; HFS+: 1 s; FAT: 2 s), hence the generous margin.
 */
const RACY_WINDOW_MS = 2_000;

interface OpenDocument {
  readonly path: WorkspacePath;
  readonly uri: string;
  readonly languageId: string;
  version: number;
  text: string;
  lastUsed: number;
  /** The epoch (below) when the server was last sent this document: older, and its analysis may predate a change elsewhere. */
  syncedAt: number;
  /** Its text is an edit's proposed content, not the file's: closing it changes what the server sees. */
  proposed: boolean;
  /** The file's DiskKey when `text` was read from it; undefined when the key proves nothing (racy, proposed, no stat). */
  diskKey: string | undefined;
}

/** How the documents reach the files they mirror. */
export interface DocumentFiles {
  /** Reads a file through the jail. */
  readText(path: WorkspacePath): Promise<string>;
  /** lstat(2) of a checked path: an open document whose file is unchanged is not read again. Without it every sync reads. */
  statFile?(path: WorkspacePath): Promise<FileStat>;
}

export interface SyncResult {
  doc: OpenDocument;
  /** didOpen or didChange was sent by this sync. */
  changed: boolean;
}

export class OpenDocuments {
  private readonly open = new Map<string, OpenDocument>();
  /**
   * Goes up with every change the server is told of (a document's new content here, a file changed
   * on disk): a document synced before the latest change may have diagnostics computed against the
   * old content of what it imports or includes.
   */
  epoch = 0;
  /**
   * Goes up only when what the server sees of the workspace changes: a file on disk, a document's
   * content, a proposed content sent or withdrawn. Opening or closing a file as it is on disk does
   * not (the server reads unopened files from disk): an answer computed at the same state is current.
   */
  state = 0;
  /** One sync at a time, so versions go up in the order the server receives them. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly connection: LspConnection,
    private readonly files: DocumentFiles,
  ) {}

  /** `text`: send this content instead of the file's (an edit's proposed result, not written yet). */
  sync(path: WorkspacePath, languageId: string, opts: { text?: string | undefined } = {}): Promise<SyncResult> {
    const run = this.queue.then(() => this.syncNow(path, languageId, opts.text));
    this.queue = run.catch(() => {});
    return run;
  }

  /** Something changed that open documents may depend on (a file on disk): their analyses may be old. */
  bump(): void {
    this.epoch += 1;
    this.state += 1;
  }

  /**
   * Sends the document again, same text, next version, so the server analyses it anew against
   * what it depends on now: push-only servers (clangd, pyright, gopls) do not all re-check an open
   * file when a header or an imported module changes, and a new version is what their next
   * diagnostics are matched with. `reopen`: closed and opened again, for a server that skips a
   * change whose text is the same (clangd then publishes nothing).
   */
  touch(path: string, opts: { reopen: boolean }): Promise<OpenDocument | undefined> {
    const run = this.queue.then(async () => {
      const doc = this.open.get(path);
      if (doc === undefined) return undefined;
      doc.version += 1;
      doc.syncedAt = this.epoch;
      if (opts.reopen) {
        await this.connection.notify("textDocument/didClose", { textDocument: { uri: doc.uri } });
        await this.connection.notify("textDocument/didOpen", {
          textDocument: { uri: doc.uri, languageId: doc.languageId, version: doc.version, text: doc.text },
        });
      } else {
        await this.connection.notify("textDocument/didChange", {
          textDocument: { uri: doc.uri, version: doc.version },
          contentChanges: [{ text: doc.text }],
        });
      }
      return doc;
    });
    this.queue = run.catch(() => {});
    return run;
  }

  get(path: string): OpenDocument | undefined {
    return this.open.get(path);
  }

  paths(): WorkspacePath[] {
    return [...this.open.values()].map((d) => d.path);
  }

  get size(): number {
    return this.open.size;
  }

  /** Closes the document in turn with syncs (an edit's proposed state has the file gone). */
  close(path: string): Promise<void> {
    const run = this.queue.then(() => this.forget(path));
    this.queue = run.catch(() => {});
    return run;
  }

  /** The file is gone or unreadable: the server must not keep analysing an old copy. */
  async forget(path: string): Promise<void> {
    const doc = this.open.get(path);
    if (doc === undefined) return;
    this.open.delete(path);
    if (doc.proposed) this.state += 1;
    await this.connection.notify("textDocument/didClose", { textDocument: { uri: doc.uri } });
  }

  private async syncNow(path: WorkspacePath, languageId: string, proposed: string | undefined): Promise<SyncResult> {
    const existing = this.open.get(path);
    if (proposed === undefined && existing !== undefined && (await this.unchangedOnDisk(existing))) {
      existing.lastUsed = Date.now();
      return { doc: existing, changed: false };
    }
    let text: string;
    let diskKey: string | undefined;
    try {
      if (proposed !== undefined) text = proposed;
      else ({ text, diskKey } = await this.readFromDisk(path));
    } catch (err) {
      await this.forget(path);
      throw err;
    }
    if (existing !== undefined) {
      existing.lastUsed = Date.now();
      existing.diskKey = diskKey;
      if (existing.text === text) {
        existing.proposed &&= proposed !== undefined;
        return { doc: existing, changed: false };
      }
      this.state += 1;
      existing.proposed = proposed !== undefined;
      existing.version += 1;
      existing.text = text;
      existing.syncedAt = ++this.epoch;
      await this.connection.notify("textDocument/didChange", {
        textDocument: { uri: existing.uri, version: existing.version },
        contentChanges: [{ text }],
      });
      return { doc: existing, changed: true };
    }
    await this.evictBeyond(MAX_OPEN - 1);
    const doc: OpenDocument = {
      path,
      uri: toFileUri(path),
      languageId,
      version: 1,
      text,
      lastUsed: Date.now(),
      // A file opened as it is on disk changes nothing the server sees (it reads unopened files
      // from disk), so the other open documents' analyses stay current; proposed content does not.
      syncedAt: proposed === undefined ? this.epoch : ++this.epoch,
      proposed: proposed !== undefined,
      diskKey,
    };
    if (doc.proposed) this.state += 1;
    this.open.set(path, doc);
    await this.connection.notify("textDocument/didOpen", { textDocument: { uri: doc.uri, languageId, version: 1, text } });
    return { doc, changed: true };
  }

  /**
   * The document holds the file's content as read, and the file's key is the same now: same inode
   * (a rename-over save makes a new one), size, mtime, mode and link count. Only a key taken while
   * the file was quiet is trusted (RACY_WINDOW_MS): a same-size rewrite in the same mtime tick as
   * the read is then impossible, since every later write gets a later mtime.
   */
  private async unchangedOnDisk(doc: OpenDocument): Promise<boolean> {
    if (doc.proposed || doc.diskKey === undefined || this.files.statFile === undefined) return false;
    const stat = await this.files.statFile(doc.path).catch(() => undefined);
    return stat !== undefined && diskKeyOf(stat) === doc.diskKey;
  }

  /** The file's text, read through the jail, and its key taken before the read (a write after the lstat changes the key). */
  private async readFromDisk(path: WorkspacePath): Promise<{ text: string; diskKey: string | undefined }> {
    const statAt = Date.now();
    const stat = await this.files.statFile?.(path).catch(() => undefined);
    const text = await this.files.readText(path);
    const quiet = stat?.isFile === true && stat.mtimeMs < statAt - RACY_WINDOW_MS;
    return { text, diskKey: quiet && stat !== undefined ? diskKeyOf(stat) : undefined };
  }

  /**
   * Closes the least recently used documents past `limit`, never one holding an edit's proposed
   * content: closing it would make the server read the file from disk while the edit's other files
   * are shown changed (a 101-file rename's preview then predicted errors its written form does not
   * have). The edit puts those back itself (apply-edit.ts), and later opens close them in turn.
   */
  private async evictBeyond(limit: number): Promise<void> {
    while (this.open.size > limit) {
      const closable = [...this.open.values()].filter((d) => !d.proposed);
      if (closable.length === 0) return;
      const oldest = closable.reduce((a, b) => (a.lastUsed <= b.lastUsed ? a : b));
      await this.forget(oldest.path);
    }
  }
}

/** What changes when a file's bytes can have changed (ctime would be surer, but the Fs port does not give it). */
function diskKeyOf(stat: FileStat): string {
  return `${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeMs}:${stat.mode}:${stat.nlink}`;
}
