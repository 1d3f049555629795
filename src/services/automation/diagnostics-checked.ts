// getDiagnostics' answers as facts for automation: the files it found diagnostics in, within what it
// was asked about, and whether the answer covers that scope whole (no checker skipped or cut short),
// so that a file of the scope it does not list has none. diagnostics-events.ts turns them into
// diagnostics.state transitions with the same per-file memory as the language servers' pushes.
import type { BridgeEvents } from "../../capabilities/events/bridge-events.ts";
import type { EventPublisher } from "../../capabilities/events/event-bus.ts";
import type { DiagnosticsReport } from "../diagnostics/diagnostics-backend.ts";

type Checked = BridgeEvents["diagnostics.checked"];

/** Publishes what a getDiagnostics answer found; `scope` is the file or folder asked about (undefined: the workspace). */
export function publishDiagnosticsChecked(events: EventPublisher, answer: { scope: string | undefined; report: DiagnosticsReport }): void {
  const { scope, report } = answer;
  const files = new Map<string, Checked["files"][number]["items"]>();
  for (const d of report.diagnostics) {
    const items = files.get(d.file) ?? [];
    items.push({ severity: d.severity, line: d.line, column: d.column, message: d.message });
    files.set(d.file, items);
  }
  events.publish("diagnostics.checked", {
    ...(scope === undefined ? {} : { scope }),
    complete: report.skipped.length === 0 && report.partial === undefined,
    files: [...files].map(([file, items]) => ({ file, items })),
  });
}
