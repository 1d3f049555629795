// A workspace check whose budget ran out answers partial, naming the directories of the files the
// language servers were not asked about, and says nothing of a budget when every file was asked.
import { describe, expect, it } from "vitest";
import type { ToolContext } from "../../../../src/capabilities/context.ts";
import type { WorkspaceDiagnostics } from "../../../../src/lsp/lsp-service-types.ts";
import { lspDiagnosticsBackend } from "../../../../src/services/diagnostics/lsp-backend.ts";

function contextWith(found: WorkspaceDiagnostics): { ctx: ToolContext; deadlines: (number | undefined)[] } {
  const deadlines: (number | undefined)[] = [];
  const ctx = {
    signal: AbortSignal.timeout(10_000),
    progress: () => {},
    fs: { stat: async () => ({ isDirectory: true }) },
    // No TypeScript compiler: the language servers check every file (project-checkers.ts).
    exec: { hasToolchain: async () => false },
    lsp: {
      workspaceDiagnostics: async (call: { deadline?: number }) => {
        deadlines.push(call.deadline);
        return found;
      },
    },
  } as unknown as ToolContext;
  return { ctx, deadlines };
}

describe("the language-server backend's budget", () => {
  it("answers partial with the directories not reached, and passes a deadline in the future", async () => {
    const notReached = ["benchmarks/b0.ts", "benchmarks/b1.ts", "runtime-tests/r0.ts", "tsconfig.json"];
    const { ctx, deadlines } = contextWith({ files: [], checked: 0, notChecked: 4, notReached, failed: [] });
    const before = Date.now();
    const report = await lspDiagnosticsBackend.collect(ctx, {});
    expect(report.partial).toBe(
      "the 90 s budget ran out before 4 file(s) were checked, in benchmarks, runtime-tests, .; pass file with one of these directories to check it on its own",
    );
    // Not-reached files are the budget's, not the per-call bound's: no second note about them.
    expect(report.skipped).toEqual([]);
    expect(deadlines[0]).toBeGreaterThan(before);
  });

  it("says nothing of a budget when every file was asked", async () => {
    const { ctx } = contextWith({ files: [], checked: 0, notChecked: 3, notReached: [], failed: [] });
    const report = await lspDiagnosticsBackend.collect(ctx, { file: "src" });
    expect(report.partial).toBeUndefined();
    expect(report.skipped).toEqual([
      { source: "language servers", reason: "3 more file(s) not checked (at most 2000 per call); pass file for one of them" },
    ]);
  });
});
