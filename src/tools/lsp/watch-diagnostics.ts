// watchDiagnostics: a long-poll that returns when diagnostics change (after an edit, a build, a
// save in an editor), so a model can wait for the effect of a change instead of polling. One file:
// any change of its diagnostics; no file: a change of the errors of any file the servers know.
import * as v from "valibot";
import type { Diagnostic } from "vscode-languageserver-protocol";
import { WakeList } from "../../lsp/wake-list.ts";
import type { ToolContext } from "../../capabilities/context.ts";
import { defineTool } from "../platform/define-tool.ts";
import { byPosition, diagnosticLine } from "../../services/diagnostics/diagnostic-lines.ts";

const MAX_WAIT_SECONDS = 110;
const MAX_LISTED = 50;

export default defineTool({
  name: "watchDiagnostics",
  title: "Wait for diagnostics to change",
  description:
    "Waits (long-poll, up to timeoutSeconds) until the diagnostics of a file, or the errors of any checked file, change, then returns the new ones; pass `since` to continue.",
  searchHint: "watch diagnostics wait for errors to change after edit long poll problems updated",
  input: v.strictObject({
    file: v.optional(v.pipe(v.string(), v.minLength(1), v.description("Only this file (default: all known files)."))),
    timeoutSeconds: v.optional(
      v.pipe(
        v.number(),
        v.integer(),
        v.minValue(1),
        v.maxValue(MAX_WAIT_SECONDS),
        v.description(`How long to wait (default 30, at most ${MAX_WAIT_SECONDS}).`),
      ),
      30,
    ),
    since: v.optional(v.pipe(v.string(), v.description("The token of a previous result: changes after it (for one file)."))),
  }),
  annotations: { readOnlyHint: true },
  slim: true,
  timeoutMs: (MAX_WAIT_SECONDS + 10) * 1000,
  async handler(input, ctx) {
    const deadline = Date.now() + input.timeoutSeconds * 1000;
    const changed = new Set<string>();
    const wake = new WakeList();
    const unsubscribe = ctx.lsp.onChange((relative) => {
      changed.add(relative);
      wake.wake();
    });
    try {
      const snapshot = await current(input.file, ctx);
      const baseline =
        input.file !== undefined && input.since !== undefined
          ? new Map([[[...snapshot.keys()][0] ?? input.file, input.since]])
          : fingerprints(snapshot);
      if (input.file !== undefined && input.since !== undefined && differs(snapshot, baseline))
        return report(snapshot, "changed since that token");
      while (Date.now() < deadline && !ctx.signal.aborted) {
        if (changed.size === 0) await wake.wait(deadline, ctx.signal);
        if (changed.size === 0) continue;
        const files = [...changed];
        changed.clear();
        if (input.file !== undefined && !files.some((f) => snapshot.has(f))) continue;
        const now = input.file !== undefined ? await current(input.file, ctx) : await errorsOf(files, ctx);
        if (differs(now, baseline)) return report(now, "changed");
      }
      return `No change within ${input.timeoutSeconds} s. ${summary(snapshot)}\nsince: ${tokenOf(snapshot)}`;
    } finally {
      unsubscribe();
    }
  },
});

type Snapshot = Map<string, Diagnostic[]>;

async function current(file: string | undefined, ctx: ToolContext): Promise<Snapshot> {
  const call = { signal: ctx.signal };
  const found = file === undefined ? await ctx.lsp.workspaceErrors(call) : [await ctx.lsp.diagnosticsFor(file, call)];
  return new Map(found.map((f) => [f.relative, f.items]));
}

async function errorsOf(files: string[], ctx: ToolContext): Promise<Snapshot> {
  const out: Snapshot = new Map();
  for (const file of files) {
    const found = await ctx.lsp.diagnosticsFor(file, { signal: ctx.signal }).catch(() => undefined);
    if (found !== undefined)
      out.set(
        found.relative,
        found.items.filter((d) => (d.severity ?? 1) === 1),
      );
  }
  return out;
}

function fingerprints(snapshot: Snapshot): Map<string, string> {
  return new Map([...snapshot].map(([file, items]) => [file, hash(items)]));
}

function differs(now: Snapshot, baseline: Map<string, string>): boolean {
  return [...now].some(([file, items]) => hash(items) !== (baseline.get(file) ?? hash([])));
}

function report(snapshot: Snapshot, why: string): string {
  const lines = [...snapshot].flatMap(([file, items]) => [...items].sort(byPosition).map((d) => diagnosticLine(file, d)));
  const shown = lines.slice(0, MAX_LISTED);
  return `Diagnostics ${why}: ${summary(snapshot)}\n${shown.join("\n")}${lines.length > shown.length ? `\n… ${lines.length - shown.length} more` : ""}\nsince: ${tokenOf(snapshot)}`;
}

function summary(snapshot: Snapshot): string {
  const all = [...snapshot.values()].flat();
  const errors = all.filter((d) => (d.severity ?? 1) === 1).length;
  return `${errors} error${errors === 1 ? "" : "s"}, ${all.length - errors} other in ${snapshot.size} file${snapshot.size === 1 ? "" : "s"}.`;
}

/** For one file, the token is its diagnostics' hash: a later call compares against it. */
function tokenOf(snapshot: Snapshot): string {
  return snapshot.size === 1 ? hash([...snapshot.values()][0] ?? []) : hash([...snapshot]);
}

/** FNV-1a of the JSON: a short token, not a security measure. */
function hash(value: unknown): string {
  let h = 0x811c9dc5;
  for (const ch of JSON.stringify(value)) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193) >>> 0;
  return h.toString(16).padStart(8, "0");
}
