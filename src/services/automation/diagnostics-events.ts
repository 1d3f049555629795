// onDiagnosticsStateChange from the language servers: when a server's diagnostics for a file change
// (lsp.onChange, cause "diagnostics"), the file's diagnostics are read again from the running server
// once they have settled (a debounce per file: a server republishes several times while the user
// types); getDiagnostics' answers (diagnostics.checked) are seen the same way, with one memory of
// each file for both; and a transition is published: "error" when a file with no errors now has some,
// "cleared" when a file that had errors has none. The first look at a file only records its state
// unless it already has errors. Read failures (the server stopped) record nothing.
import type { Diagnostic } from "vscode-languageserver-protocol";
import type { BridgeEvents } from "../../capabilities/events/bridge-events.ts";
import type { CallOrigin, EventBus, EventPublisher } from "../../capabilities/events/event-bus.ts";
import type { LspService } from "../../lsp/lsp-service-types.ts";

const SETTLE_MS = 1_000;
const READ_TIMEOUT_MS = 10_000;
/** Files whose state is remembered; past it the oldest are forgotten (their next errors count as new). */
const FILES_REMEMBERED = 2_000;
const SEVERITY = ["error", "warning", "information", "hint"] as const;

export type DiagnosticsState = "error" | "cleared";

/** One diagnostic as both sources give it: the severity (LSP's 1-4, missing meaning error) and where, 1-based. */
export interface SeenDiagnostic {
  severity: 1 | 2 | 3 | 4;
  line: number;
  column: number;
  message: string;
}

const isError = (d: SeenDiagnostic) => d.severity === 1;

/** The transition a file's new diagnostics make, given whether it had errors before (undefined: never seen). */
export function diagnosticsTransition(
  hadErrors: boolean | undefined,
  items: readonly (Diagnostic | SeenDiagnostic)[],
): DiagnosticsState | undefined {
  const errors = items.some((d) => (d.severity ?? 1) === 1);
  if (errors && hadErrors !== true) return "error";
  if (!errors && hadErrors === true) return "cleared";
  return undefined;
}

/** The event's payload: counts, the worst severity, and the first lines of the errors (for the prompt). */
export function diagnosticsSummary(file: string, change: { state: DiagnosticsState; items: readonly SeenDiagnostic[] }) {
  const { state, items } = change;
  const worst = Math.min(...items.map((d) => d.severity), 4);
  const lines = items
    .filter(isError)
    .slice(0, 20)
    .map((d) => `${file}:${d.line}:${d.column}: ${d.message}`);
  return {
    file,
    state,
    count: items.length,
    errors: items.filter(isError).length,
    worstSeverity: SEVERITY[worst - 1] ?? "hint",
    lines: lines.join("\n"),
  };
}

/** A language server's diagnostic as a seen one. */
export function fromLsp(d: Diagnostic): SeenDiagnostic {
  return {
    severity: d.severity ?? 1,
    line: d.range.start.line + 1,
    column: d.range.start.character + 1,
    message: typeof d.message === "string" ? d.message : d.message.value,
  };
}

const CHECKED_SEVERITY = { error: 1, warning: 2, info: 3, hint: 4 } as const;

/**
 * Which files had errors when last seen, from either source, and the transitions their new
 * diagnostics make, published as diagnostics.state (with the origin of the call that saw them).
 */
export class DiagnosticsStates {
  private readonly hadErrors = new Map<string, boolean>();

  constructor(private readonly events: EventPublisher) {}

  observe(file: string, items: readonly SeenDiagnostic[], origin?: CallOrigin): void {
    const state = diagnosticsTransition(this.hadErrors.get(file), items);
    this.hadErrors.delete(file);
    this.hadErrors.set(file, items.some(isError));
    for (const old of this.hadErrors.keys()) {
      if (this.hadErrors.size <= FILES_REMEMBERED) break;
      this.hadErrors.delete(old);
    }
    if (state !== undefined) this.events.publish("diagnostics.state", diagnosticsSummary(file, { state, items }), origin);
  }

  /** A getDiagnostics answer: its files as listed; when it covers its scope whole, the scope's files it does not list have none. */
  observeChecked(checked: BridgeEvents["diagnostics.checked"], origin?: CallOrigin): void {
    const listed = new Set<string>();
    for (const { file, items } of checked.files) {
      listed.add(file);
      this.observe(
        file,
        items.map((d) => ({ ...d, severity: CHECKED_SEVERITY[d.severity] })),
        origin,
      );
    }
    if (!checked.complete) return;
    const { scope } = checked;
    for (const [file, errors] of [...this.hadErrors]) {
      const within = scope === undefined || scope === "" || file === scope || file.startsWith(`${scope}/`);
      if (errors && within && !listed.has(file)) this.observe(file, [], origin);
    }
  }
}

/** Feeds `states` from getDiagnostics' answers on the bus; returns the function that stops it. */
export function watchCheckedDiagnostics(bus: EventBus, states: DiagnosticsStates): () => void {
  return bus.subscribe("diagnostics.checked", (checked, origin) => states.observeChecked(checked, origin));
}

/** Watches the language servers' diagnostics into `states`; returns the function that stops it. */
export function watchDiagnosticsState(
  lsp: Pick<LspService, "onChange" | "diagnosticsFor">,
  states: DiagnosticsStates,
  opts: { settleMs?: number } = {},
): () => void {
  const timers = new Map<string, ReturnType<typeof setTimeout>>();
  const stopping = new AbortController();
  const check = async (file: string) => {
    timers.delete(file);
    const signal = AbortSignal.any([stopping.signal, AbortSignal.timeout(READ_TIMEOUT_MS)]);
    const found = await lsp.diagnosticsFor(file, { signal, start: false }).catch(() => undefined);
    if (found === undefined || stopping.signal.aborted) return;
    states.observe(found.relative, found.items.map(fromLsp));
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
