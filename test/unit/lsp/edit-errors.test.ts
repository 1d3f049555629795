// The server's part of an edit check (src/lsp/edit-errors.ts) ends by the call's limit (`stopBy`):
// a file whose pull never answers, or one not yet asked by then, is named late and the result says
// it was cut, instead of the check outlasting the call that wrote the edit.
import type { Diagnostic } from "vscode-languageserver-protocol";
import { describe, expect, it } from "vitest";
import { errorsOf, type FileSet } from "../../../src/lsp/edit-errors.ts";
import { markChecked, type WorkspacePath } from "../../../src/security/jail/workspace-path.ts";

const error = (message: string): Diagnostic => ({
  range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } },
  severity: 1,
  message,
});

/** A server that answers `quick` files at once and never answers the others until its signal aborts (a pull stuck behind a slow server). */
function serverAnswering(quick: ReadonlySet<string>) {
  const asked: string[] = [];
  return {
    asked,
    supports: () => true,
    sync: () => Promise.reject(new Error("a pulling server is not sent the files first")),
    diagnosticsFor(path: WorkspacePath, _languageId: string, opts: { signal: AbortSignal }) {
      asked.push(path);
      if (quick.has(path)) return Promise.resolve({ items: [error(`in ${path}`)], how: "pull" as const });
      return new Promise<never>((_, reject) => {
        opts.signal.addEventListener("abort", () => reject(opts.signal.reason), { once: true });
      });
    },
  };
}

const files = (names: string[]): FileSet => ({
  paths: names.map((n) => markChecked(`/w/${n}`)),
  language: () => "typescript",
  name: (path) => path.slice("/w/".length),
});

describe("an edit's errors from the server", () => {
  it("stop at the call's limit: files not answered by then are named late, and the result says it was cut", async () => {
    const server = serverAnswering(new Set(["/w/a.ts"]));
    const found = await errorsOf(server, files(["a.ts", "stuck.ts", "b.ts", "c.ts", "d.ts", "e.ts"]), {
      pushWaitMs: 60_000,
      signal: new AbortController().signal,
      stopBy: Date.now() + 300,
    });
    expect(found.errors.map((e) => e.file)).toEqual(["a.ts"]);
    expect(found.late.sort()).toEqual(["b.ts", "c.ts", "d.ts", "e.ts", "stuck.ts"]);
    expect(found.cut).toBe(true);
  }, 30_000);

  it("ask nothing once the limit has passed, and are not cut while it is far", async () => {
    const late = serverAnswering(new Set(["/w/a.ts"]));
    const past = await errorsOf(late, files(["a.ts"]), {
      pushWaitMs: 60_000,
      signal: new AbortController().signal,
      stopBy: Date.now() - 1,
    });
    expect(late.asked).toEqual([]);
    expect(past).toEqual({ errors: [], late: ["a.ts"], cut: true });
    const far = await errorsOf(serverAnswering(new Set(["/w/a.ts"])), files(["a.ts"]), {
      pushWaitMs: 60_000,
      signal: new AbortController().signal,
      stopBy: Date.now() + 600_000,
    });
    expect(far).toEqual({ errors: [{ file: "a.ts", diagnostic: error("in /w/a.ts") }], late: [] });
  });

  it("are still cancelled by the caller's own signal, not taken for a cut", async () => {
    const caller = new AbortController();
    const pending = errorsOf(serverAnswering(new Set()), files(["stuck.ts"]), {
      pushWaitMs: 60_000,
      signal: caller.signal,
      stopBy: Date.now() + 600_000,
    });
    caller.abort(new Error("cancelled by the client"));
    await expect(pending).rejects.toThrow("cancelled by the client");
  });

  it("send a push-only server every file before asking about the first, so it analyses them in one pass", async () => {
    const events: string[] = [];
    const server = {
      supports: () => false,
      sync: async (path: WorkspacePath, _languageId: string, opts: { text?: string | undefined }) => {
        events.push(`sync ${path}${opts.text === undefined ? "" : " (proposed)"}`);
        return {} as never;
      },
      diagnosticsFor: async (path: WorkspacePath) => {
        events.push(`ask ${path}`);
        return { items: [], how: "push" as const };
      },
    };
    const set = { ...files(["a.py", "b.py"]), text: (path: WorkspacePath) => (path.endsWith("b.py") ? "new" : undefined) };
    await errorsOf(server, set, { pushWaitMs: 1_000, signal: AbortSignal.timeout(5_000) });
    expect(events.slice(0, 2).sort()).toEqual(["sync /w/a.py", "sync /w/b.py (proposed)"]);
    expect(events.slice(2).sort()).toEqual(["ask /w/a.py", "ask /w/b.py"]);
  });
});
