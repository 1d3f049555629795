// Tells clients when tools/list's answer changes because the VS Code extension came or went: the
// tools only VS Code can answer are listed while it is connected, so a model does not pick a tool
// that can only fail. VS Code reloading a window drops the extension and brings it back within a
// second or two, so changes are debounced and compared with what clients were last told: a flap
// that ends where it started sends nothing. A language server coming or going changes no tool
// (language-server tools start their server per file, and say what to install when there is none),
// so nothing is sent for it.
import type { ToolRegistry } from "./registry.ts";

/** How long the extension's state must hold before clients hear of it. */
export const TOOL_LIST_DEBOUNCE_MS = 1000;

export interface AnnouncerOptions {
  /** Tells every client serving these registries (notifications/tools/list_changed, listen streams). */
  announce(): void;
  debounceMs?: number;
}

export class ToolListAnnouncer {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private told: string;

  constructor(
    private readonly registries: readonly Pick<ToolRegistry, "listedNames" | "listExtensionTools">[],
    private readonly opts: AnnouncerOptions,
  ) {
    this.told = this.signature();
  }

  /** The extension is there (handshake done) or not: list its tools accordingly, and tell clients once it settles. */
  extensionPresent(present: boolean): void {
    let changed = false;
    for (const registry of this.registries) changed = registry.listExtensionTools(present) || changed;
    if (changed) this.schedule();
  }

  /** The list changed for another reason (a plugin reload): tell clients now. */
  announceNow(): void {
    this.told = this.signature();
    this.opts.announce();
  }

  /** The start-up list: what every client's first tools/list sees, nothing to announce. */
  alreadyTold(): void {
    this.told = this.signature();
  }

  dispose(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private schedule(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      const now = this.signature();
      if (now === this.told) return;
      this.told = now;
      this.opts.announce();
    }, this.opts.debounceMs ?? TOOL_LIST_DEBOUNCE_MS);
  }

  private signature(): string {
    return this.registries.map((registry) => registry.listedNames().join(",")).join("|");
  }
}
