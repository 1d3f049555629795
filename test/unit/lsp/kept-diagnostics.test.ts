// A pulled answer is reused only while what the server sees is the same (kept-diagnostics.ts, the
// documents' `state`): every path that changes it without a content sync must advance the state,
// or a kept answer from before is given as current (as one gave "0 introduced" for a deletion).
// Driven through a scripted pulling server, counting the pulls it is asked. A pushed answer is kept
// the same way, but only where all it can depend on is a workspace file (kept-diagnostics.ts):
// driven through a scripted push server, counting the documents it is sent.
import { describe, expect, it } from "vitest";
import { KeptDiagnostics, pushedAnswerKeepable } from "../../../src/lsp/kept-diagnostics.ts";
import { LanguageServer } from "../../../src/lsp/language-server.ts";
import type { ServerSpec } from "../../../src/lsp/server-specs.ts";
import type { LanguageServerLauncher, LspConnection } from "../../../src/ports/lsp.ts";
import type { WorkspacePath } from "../../../src/security/jail/workspace-path.ts";
import { scriptedPushServer } from "../../helpers/scripted-push-server.ts";

const SPEC: ServerSpec = { id: "puller", languages: ["x"], command: [], args: [], rootMarkers: [], readiness: { rule: "progress" } };
const FILE = "/w/a.x" as WorkspacePath;

/** What a scripted server's connection does besides requests and notifications: nothing. */
const SCRIPTED: Pick<LspConnection, "onRequest" | "stderrTail" | "kill" | "close" | "exited"> = {
  onRequest: () => {},
  stderrTail: () => "",
  kill: () => {},
  close: async () => {},
  exited: new Promise(() => {}),
};

async function pullingServer(opts: { watching: boolean }) {
  let pulls = 0;
  const connection: LspConnection = {
    pid: undefined,
    request: async (method) => {
      if (method === "initialize")
        return { capabilities: { diagnosticProvider: { interFileDependencies: true, workspaceDiagnostics: false } } };
      if (method === "textDocument/diagnostic") {
        pulls += 1;
        return { kind: "full", items: [] };
      }
      return null;
    },
    notify: async () => {},
    onNotification: () => {},
    ...SCRIPTED,
  };
  const launcher: LanguageServerLauncher = { start: () => connection, bundled: async () => undefined };
  const server = await LanguageServer.start(
    launcher,
    {
      spec: SPEC,
      root: "/w",
      command: "puller",
      args: [],
      env: {},
      initializationOptions: undefined,
      settings: { x: { a: 1 } },
      processId: 1,
    },
    { readText: async () => "content", onDiagnosticsChanged: () => {}, watching: () => opts.watching },
  );
  const check = () => server.diagnosticsFor(FILE, "x", { deadline: Date.now() + 10_000, signal: new AbortController().signal });
  return { server, check, pulls: () => pulls };
}

/** Two checks ask the server once; a change on disk makes the next one ask again. */
async function reusedUntilAChange(made: { server: LanguageServer; check(): Promise<unknown>; asked(): number }) {
  await made.check();
  await made.check();
  expect(made.asked()).toBe(1);
  made.server.filesChanged();
  await made.check();
  expect(made.asked()).toBe(2);
}

describe("kept pulled diagnostics", () => {
  it("are reused at the same state, and not past a change on disk", async () => {
    const { server, check, pulls } = await pullingServer({ watching: true });
    await reusedUntilAChange({ server, check, asked: pulls });
  });

  it("are not reused after the server's settings changed", async () => {
    const { server, check, pulls } = await pullingServer({ watching: true });
    await check();
    await server.updateSettings({ x: { a: 2 } });
    await check();
    expect(pulls()).toBe(2);
    // The same settings again change nothing, so the kept answer stands.
    await server.updateSettings({ x: { a: 2 } });
    await check();
    expect(pulls()).toBe(2);
  });

  it("are never kept while the watcher does not see every change", async () => {
    const { check, pulls } = await pullingServer({ watching: false });
    await check();
    await check();
    expect(pulls()).toBe(2);
  });
});

/** A push-only server that publishes no diagnostics for each version of a document it is sent. */
async function pushingServer(opts: { languageId: string; text: string; kept?: KeptDiagnostics }) {
  const scripted = scriptedPushServer(() => [], { changes: true });
  const spec: ServerSpec = { ...SPEC, id: "pusher", languages: [opts.languageId] };
  const launch = {
    spec,
    root: "/w",
    command: "pusher",
    args: [],
    env: {},
    initializationOptions: undefined,
    settings: {},
    processId: 1,
    ...(opts.kept ? { kept: opts.kept } : {}),
  };
  const server = await LanguageServer.start(scripted.launcher, launch, {
    readText: async () => opts.text,
    onDiagnosticsChanged: () => {},
    watching: () => true,
  });
  const file = "/w/data.x" as WorkspacePath;
  const check = async () => {
    const found = await server.diagnosticsFor(file, opts.languageId, {
      deadline: Date.now() + 10_000,
      signal: new AbortController().signal,
    });
    expect(found.how).toBe("push");
    // Past the 64 a server keeps open, a file is closed: the next check would open it again.
    await server.close(file);
  };
  return { server, check, sent: scripted.sent };
}

describe("kept pushed diagnostics", () => {
  it("are reused at the same state for a file that names no schema, and not past a change on disk", async () => {
    const { server, check, sent } = await pushingServer({ languageId: "json", text: '{ "a": 1 }' });
    await reusedUntilAChange({ server, check, asked: sent });
  });

  it("are not kept for a file whose schema is fetched from the network", async () => {
    const { check, sent } = await pushingServer({ languageId: "json", text: '{ "$schema": "https://example.com/s.json" }' });
    await check();
    await check();
    expect(sent()).toBe(2);
  });
});

describe("answers of a stopped server", () => {
  const FILE_PATH = "/w/data.x";
  /** A server that checked the file, then stopped (`before`: what happened first); and the next one's check. */
  async function stoppedThenNext(before?: (server: LanguageServer) => Promise<void>) {
    const kept = new KeptDiagnostics();
    const first = await pushingServer({ languageId: "json", text: "{}", kept });
    await first.check();
    await before?.(first.server);
    first.server.retire();
    const answer = kept.retiredAnswer(FILE_PATH, "{}");
    const next = async (change?: () => void) => {
      change?.();
      const server = await pushingServer({ languageId: "json", text: "{}", kept });
      await server.check();
      return server.sent();
    };
    return { kept, answer, next };
  }

  it("are given while nothing changed, and taken over by the next server of its (server, root)", async () => {
    const { kept, answer, next } = await stoppedThenNext();
    expect(answer).toEqual({ items: [], how: "push", server: "pusher" });
    expect(kept.retiredAnswer(FILE_PATH, '{"a":1}')).toBeUndefined();
    expect(await next()).toBe(0);
  });

  it("are dropped by a change heard while none runs", async () => {
    const { kept, next } = await stoppedThenNext();
    expect(await next(() => kept.clear())).toBe(1);
    expect(kept.retiredAnswer(FILE_PATH, "{}")).toBeUndefined();
  });

  it("are not kept from a server stopped with a proposed content open (it did not see the disk)", async () => {
    const { answer } = await stoppedThenNext(async (server) => {
      await server.sync("/w/other.x" as WorkspacePath, "json", { text: "{ proposed }" });
    });
    expect(answer).toBeUndefined();
  });
});

describe("which pushed answers may be kept", () => {
  const at = (languageId: string, text: string) => ({ languageId, path: "/w/conf/a.json", text });
  /** The watcher's word, here: it hears what is under /w/schemas and /w/conf; the paths asked are recorded. */
  function hearing() {
    const asked: string[] = [];
    const hears = async (path: string) => {
      asked.push(path);
      return path.startsWith("/w/schemas/") || path.startsWith("/w/conf/");
    };
    return { asked, hears };
  }
  it("keeps what depends only on files the watcher hears, asking it for the schema's absolute path", async () => {
    const { asked, hears } = hearing();
    expect(await pushedAnswerKeepable(at("json", '{ "$schema": "../schemas/a.schema.json" }'), hears)).toBe(true);
    expect(await pushedAnswerKeepable(at("json", '{ "$schema": "file:///w/schemas/b%20c.json" }'), hears)).toBe(true);
    expect(await pushedAnswerKeepable(at("yaml", "# yaml-language-server: $schema=./s.json#/x\na: 1\n"), hears)).toBe(true);
    expect(await pushedAnswerKeepable(at("html", "<p>hi</p>"), hears)).toBe(true);
    expect(await pushedAnswerKeepable(at("json", '{ "a": 1 }'), hears)).toBe(true);
    expect(asked).toEqual(["/w/schemas/a.schema.json", "/w/schemas/b c.json", "/w/conf/s.json"]);
  });
  it("refuses a schema the watcher does not hear or on the network, and servers that read outside the workspace", async () => {
    const { asked, hears } = hearing();
    expect(await pushedAnswerKeepable(at("json", '{ "$schema": "../../etc/s.json" }'), hears)).toBe(false);
    expect(await pushedAnswerKeepable(at("json", '{ "$schema": "file:///etc/s.json" }'), hears)).toBe(false);
    expect(await pushedAnswerKeepable(at("json", '{ "$schema": "file:///w/schemas/%E0%A4%A.json" }'), hears)).toBe(false);
    expect(await pushedAnswerKeepable(at("jsonc", '{ "$schema": "https://json.schemastore.org/tsconfig" }'), hears)).toBe(false);
    expect(await pushedAnswerKeepable(at("yaml", "# yaml-language-server: $schema=https://example.com/s.json\n"), hears)).toBe(false);
    expect(await pushedAnswerKeepable(at("shellscript", "echo hi\n"), hears)).toBe(false);
    expect(await pushedAnswerKeepable(at("python", "x = 1\n"), hears)).toBe(false);
    // Only the two paths were asked of the watcher: a URL and an undecodable URI are refused without it.
    expect(asked).toEqual(["/etc/s.json", "/etc/s.json"]);
  });
});
