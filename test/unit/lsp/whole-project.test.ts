// The readiness rules of whole-project answers, driven by the $/progress a server sends: clangd's
// background index ("task") must end once before an answer is complete, and an index that never
// starts or does not end in time makes the answer partial, saying which.
import { describe, expect, it } from "vitest";
import type { LanguageServer } from "../../../src/lsp/language-server.ts";
import { ProgressTracker } from "../../../src/lsp/progress-tracker.ts";
import type { Readiness } from "../../../src/lsp/server-specs.ts";
import { wholeProjectAnswer } from "../../../src/lsp/whole-project.ts";

const INDEX: Readiness = { rule: "task", token: "backgroundIndexProgress", title: "background index", beginWithinMs: 2_000 };

function serverWith(readiness: Readiness, startedAt = Date.now()) {
  const progress = new ProgressTracker();
  const server = { launch: { spec: { id: "clangd", readiness } }, progress, startedAt } as unknown as LanguageServer;
  const send = (kind: "begin" | "report" | "end", token = "backgroundIndexProgress") =>
    progress.onProgress({
      token,
      value: kind === "begin" ? { kind, title: "indexing" } : kind === "report" ? { kind, message: "3/9" } : { kind },
    });
  return { server, send };
}

const signal = new AbortController().signal;
const soon = (ms: number) => Date.now() + ms;

describe("a server ready once its indexing task ended once", () => {
  it("waits for the task to begin and end, then answers complete", async () => {
    const { server, send } = serverWith(INDEX);
    let asked = 0;
    const answer = wholeProjectAnswer(server, async () => ++asked, { deadline: soon(10_000), signal });
    // The index is announced after the first request is already waiting (clangd: 0.1 s after didOpen).
    queueMicrotask(() => {
      send("begin");
      send("report");
      setTimeout(() => send("end"), 50);
    });
    await expect(answer).resolves.toEqual({ value: 1, complete: true });
  });

  it("answers complete at once after the task ended once, with nothing else running", async () => {
    const { server, send } = serverWith(INDEX);
    send("begin");
    send("end");
    await expect(wholeProjectAnswer(server, async () => "refs", { deadline: soon(10_000), signal })).resolves.toEqual({
      value: "refs",
      complete: true,
    });
  });

  it("is partial, saying the index was still running, when it does not end by the deadline", async () => {
    const { server, send } = serverWith(INDEX);
    send("begin");
    send("report");
    const answer = await wholeProjectAnswer(server, async () => "some", { deadline: soon(100), signal });
    expect(answer.complete).toBe(false);
    expect(answer.why).toMatch(/clangd's background index was still running \(indexing: 3\/9\)/);
  });

  it("is partial, naming the missing compilation database, when the index never begins", async () => {
    const { server } = serverWith(INDEX, Date.now() - 1_900);
    const t0 = Date.now();
    const answer = await wholeProjectAnswer(server, async () => "open files only", { deadline: soon(10_000), signal });
    expect(answer.complete).toBe(false);
    expect(answer.why).toMatch(/background index had not started \d+ s after clangd did.*compile_commands\.json/);
    // It waited for the begin only until beginWithinMs after the start, not to the deadline.
    expect(Date.now() - t0).toBeLessThan(5_000);
  });

  it("is partial at once when the task cannot come (no compilation database), without waiting for it to begin", async () => {
    const { server } = serverWith({ ...INDEX, beginWithinMs: 600_000 });
    let asked = 0;
    const answer = await wholeProjectAnswer(server, async () => "open files only", {
      deadline: soon(600_000),
      signal,
      taskMissing: async () => {
        asked += 1;
        return "clangd found no compile_commands.json";
      },
    });
    expect(answer).toEqual({ value: "open files only", complete: false, why: "clangd found no compile_commands.json" });
    expect(asked).toBe(1);
  });

  it("does not ask whether the task can come once it has begun, and waits for its end", async () => {
    const { server, send } = serverWith(INDEX);
    send("begin");
    let asked = 0;
    const answer = wholeProjectAnswer(server, async () => "all", {
      deadline: soon(10_000),
      signal,
      taskMissing: async () => {
        asked += 1;
        return "never";
      },
    });
    queueMicrotask(() => send("end"));
    await expect(answer).resolves.toEqual({ value: "all", complete: true });
    expect(asked).toBe(0);
  });

  it("does not take another task's end, or a general quiet, for the index", async () => {
    const { server, send } = serverWith(INDEX, Date.now() - 1_950);
    send("begin", "other");
    send("end", "other");
    const answer = await wholeProjectAnswer(server, async () => 1, { deadline: soon(10_000), signal });
    expect(answer.complete).toBe(false);
  });

  it("waits again for a re-index that began after the first one ended", async () => {
    const { server, send } = serverWith(INDEX);
    send("begin");
    send("end");
    send("begin");
    const answer = await wholeProjectAnswer(server, async () => 1, { deadline: soon(100), signal });
    expect(answer).toMatchObject({ complete: false, why: expect.stringContaining("still busy (indexing)") });
  });

  it("starts over when the server died: its successor indexes anew", async () => {
    const { server, send } = serverWith(INDEX, Date.now() - 1_950);
    send("begin");
    send("end");
    server.progress.reset();
    expect(server.progress.taskState("backgroundIndexProgress")).toBe("not-begun");
  });
});

describe("a server ready once it logged that it knows its project's files (pyright)", () => {
  const STABLE: Readiness = { rule: "stable", settleMs: 1000 };
  const READY_LOG = { message: /^Found \d+ source files?/, what: "search for the project's source files" };
  function pyright() {
    const progress = new ProgressTracker();
    const server = { launch: { spec: { id: "pyright", readiness: STABLE, readyLog: READY_LOG } }, progress, startedAt: Date.now() };
    return { server: server as unknown as LanguageServer, progress };
  }

  it("waits for the line, then answers complete from one answer (no second sample)", async () => {
    const { server, progress } = pyright();
    let asked = 0;
    const answer = wholeProjectAnswer(server, async () => ++asked, { deadline: soon(10_000), signal });
    setTimeout(() => progress.noteReadyLog(), 50);
    await expect(answer).resolves.toEqual({ value: 1, complete: true });
    expect(asked).toBe(1);
  });

  it("is partial past the deadline without the line, saying what the server had not finished", async () => {
    const { server } = pyright();
    const answer = await wholeProjectAnswer(server, async () => "open files only", { deadline: soon(100), signal });
    expect(answer).toMatchObject({ value: "open files only", complete: false });
    expect(answer.why).toMatch(/^pyright had not finished its search for the project's source files \d+ s after it started/);
  });

  it("starts over when the server died", async () => {
    const { server, progress } = pyright();
    progress.noteReadyLog();
    progress.reset();
    expect((await wholeProjectAnswer(server, async () => 0, { deadline: soon(50), signal })).complete).toBe(false);
  });
});
