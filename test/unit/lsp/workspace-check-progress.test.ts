// A workspace check by the language servers says how far it got while servers start and push
// (seconds each on a real repository), at most once a second, instead of going silent after the
// compiler's phase.
import { afterEach, describe, expect, it, vi } from "vitest";
import { checkWorkspaceFiles, type WorkspaceCheckDeps } from "../../../src/lsp/workspace-diagnostics.ts";
import type { FileDiagnosticsResult } from "../../../src/lsp/lsp-service-types.ts";
import type { WorkspacePath } from "../../../src/security/jail/workspace-path.ts";

function deps(files: readonly string[], msPerFile: number): WorkspaceCheckDeps {
  return {
    fs: {
      async *walk() {
        for (const rel of files) yield { rel, kind: "file" } as never;
      },
    },
    languageOf: () => "json",
    handlesLanguage: async () => true,
    async diagnosticsFor(file): Promise<FileDiagnosticsResult> {
      vi.setSystemTime(Date.now() + msPerFile);
      return { path: `/w/${file}` as WorkspacePath, relative: file, items: [], server: "json", current: true };
    },
  };
}

async function messagesOf(files: readonly string[], msPerFile: number): Promise<string[]> {
  const messages: string[] = [];
  const call = { signal: AbortSignal.timeout(10_000), maxFiles: 100, onProgress: (m: string) => messages.push(m) };
  const out = await checkWorkspaceFiles(call, deps(files, msPerFile));
  expect(out.checked).toBe(files.length);
  return messages;
}

describe("workspace check progress", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("names the files to check, then how many are done at most once a second", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const files = Array.from({ length: 12 }, (_, i) => `conf/f${i}.json`);
    const messages = await messagesOf(files, 400);
    expect(messages[0]).toBe("language servers: 12 file(s) to check");
    const counts = messages.slice(1).map((m) => Number(/^language servers: (\d+) of 12 file\(s\) checked$/.exec(m)?.[1]));
    expect(counts.length).toBeGreaterThan(0);
    expect(counts.every((n) => n >= 1 && n <= 12)).toBe(true);
    // 12 files of 0.4 s each: 4.8 s, so no more than one message a second.
    expect(counts.length).toBeLessThanOrEqual(5);
  });

  it("says only what it will check when it takes no time", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    expect(await messagesOf(["a.json", "b.json"], 0)).toEqual(["language servers: 2 file(s) to check"]);
  });
});
