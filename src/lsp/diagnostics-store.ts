// Diagnostics one server pushed (textDocument/publishDiagnostics), kept per URI with the document
// version they are for, so a reader can wait for the ones of the content it just synced instead of
// taking whatever came last: diagnostics of an older version would describe code that is gone.
import type { Diagnostic, PublishDiagnosticsParams } from "vscode-languageserver-protocol";
import { WakeList } from "./wake-list.ts";

interface Published {
  items: Diagnostic[];
  /** The document version the server said they are for, when it says. */
  version: number | undefined;
  /** Order of arrival, across URIs. */
  seq: number;
}

export class DiagnosticsStore {
  private readonly byUri = new Map<string, Published>();
  private seq = 0;
  private readonly arrivals = new WakeList();
  /** When the last publication came, for any URI (Date.now()). */
  lastArrivalAt = Number.NEGATIVE_INFINITY;

  constructor(private readonly onChange: (uri: string) => void) {}

  get now(): number {
    return this.seq;
  }

  publish(params: PublishDiagnosticsParams): void {
    this.seq += 1;
    this.lastArrivalAt = Date.now();
    const before = this.byUri.get(params.uri);
    this.byUri.set(params.uri, { items: params.diagnostics, version: params.version, seq: this.seq });
    if (before === undefined || JSON.stringify(before.items) !== JSON.stringify(params.diagnostics)) this.onChange(params.uri);
    this.arrivals.wake();
  }

  get(uri: string): Published | undefined {
    return this.byUri.get(uri);
  }

  uris(): string[] {
    return [...this.byUri.keys()];
  }

  /**
   * The diagnostics of `uri` published after `afterSeq` for `version` (or with no version given,
   * unless `versioned`), waiting until `deadline`; undefined when none came in time.
   */
  async next(
    uri: string,
    opts: { afterSeq: number; version: number; versioned?: boolean; deadline: number; signal: AbortSignal },
  ): Promise<Published | undefined> {
    for (;;) {
      const found = this.byUri.get(uri);
      const forVersion = found?.version === undefined ? opts.versioned !== true : found.version >= opts.version;
      if (found !== undefined && found.seq > opts.afterSeq && forVersion) return found;
      const remaining = opts.deadline - Date.now();
      if (remaining <= 0 || opts.signal.aborted) return undefined;
      await this.arrivals.wait(opts.deadline, opts.signal);
    }
  }

  /** Resolves at the next publication, at `deadline` or on abort, whichever is first. */
  arrival(deadline: number, signal: AbortSignal): Promise<void> {
    return this.arrivals.wait(deadline, signal);
  }

  clear(): void {
    this.byUri.clear();
  }
}
