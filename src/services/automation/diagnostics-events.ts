// onDiagnosticsStateChange from the language servers: when a server's diagnostics for a file change
// (lsp.onChange, cause "diagnostics"), the file's diagnostics are read again from the running server
// once they have settled (a debounce per file: a server republishes several times while the user
// types), and a transition is published: "error" when a file with no errors now has some,
// "cleared" when a file that had errors has none. The first look at a file only records its state
// unless it already has errors. Read failures (the server stopped) record nothing.
import type { Diagnostic } from "vscode-languageserver-protocol";
import type { EventPublisher } from "../../capabilities/events/event-bus.ts";
import type { LspService } from "../../lsp/lsp-service-types.ts";

const SETTLE_MS = 1_000;
const READ_TIMEOUT_MS = 10_000;
/** Files whose state is remembered; past it the oldest are forgotten (their next errors count as new). */
const FILES_REMEMBERED = 2_000;
const SEVERITY = ["error", "warning", "information", "hint"] as const;

export type DiagnosticsState = "error" | "cleared";

/** The transition a file's new diagnostics make, given whether it had errors before (undefined: never seen). */
export function diagnosticsTransition(hadErrors: boolean | undefined, items: readonly Diagnostic[]): DiagnosticsState | undefined {
  const errors = items.some((d) => (d.severity ?? 1) === 1);
  if (errors && hadErrors !== true) return "error";
  if (!errors && hadErrors === true) return "cleared";
  return undefined;
}

/** The event's payload: counts, the worst severity, and the first lines of the errors (for the prompt). */
export function diagnosticsSummary(file: string, change: { state: DiagnosticsState; items: readonly Diagnostic[] }) {
  const { state, items } = change;
  const worst = Math.min(...items.map((d) => d.severity ?? 1), 4);
  const lines = items
    .filter((d) => (d.severity ?? 1) === 1)
    .slice(0, 20)
    .map((d) => `${file}:${d.range.start.line + 1}:${d.range.start.character + 1}: ${d.message}`);
  return {
    file,
    state,
    count: items.length,
    errors: items.filter((d) => (d.severity ?? 1) === 1).length,
    worstSeverity: SEVERITY[worst - 1] ?? "hint",
    lines: lines.join("\n"),
  };
}

/** Watches the language servers' diagnostics and publishes "diagnostics.state"; returns the function that stops it. */
export function watchDiagnosticsState(
  lsp: Pick<LspService, "onChange" | "diagnosticsFor">,
  events: EventPublisher,
  opts: { settleMs?: number } = {},
): () => void {
  const hadErrors = new Map<string, boolean>();
  const timers = new Map<string, ReturnType<typeof setTimeout>>();
  const stopping = new AbortController();
  const check = async (file: string) => {
    timers.delete(file);
    const signal = AbortSignal.any([stopping.signal, AbortSignal.timeout(READ_TIMEOUT_MS)]);
    const found = await lsp.diagnosticsFor(file, { signal, start: false }).catch(() => undefined);
    if (found === undefined || stopping.signal.aborted) return;
    const state = diagnosticsTransition(hadErrors.get(found.relative), found.items);
    hadErrors.delete(found.relative);
    hadErrors.set(
      found.relative,
      found.items.some((d) => (d.severity ?? 1) === 1),
    );
    for (const old of hadErrors.keys()) {
      if (hadErrors.size <= FILES_REMEMBERED) break;
      hadErrors.delete(old);
    }
    if (state !== undefined) events.publish("diagnostics.state", diagnosticsSummary(found.relative, { state, items: found.items }));
  };
  const off = lsp.onChange((relative, cause) => {
    if (cause !== "diagnostics" || stopping.signal.aborted) return;
    clearTimeout(timers.get(relative));
    timers.set(
      relative,
      setTimeout(() => void check(relative), opts.settleMs ?? SETTLE_MS),
    );
  });
  return () => {
    stopping.abort();
    off();
    for (const timer of timers.values()) clearTimeout(timer);
    timers.clear();
  };
}
