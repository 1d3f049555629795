// A server's answer is kept only while the watcher hears every change (kept-diagnostics.ts), and it
// does not before its first walk of the workspace has put a watch on every folder: a file changed
// meanwhile in a folder not watched yet makes no event, so an answer kept then would be given
// again after that change. The walk is held back here (readdir of one folder waits), and the
// answer of a file closed and asked again must be computed afresh; once the walk is done, it is kept.
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { createNodeRuntime } from "../../../runtime/node.ts";
import { createLspService, type LspService } from "../../../src/lsp/lsp-service.ts";
import type { ServerSpec } from "../../../src/lsp/server-specs.ts";
import { createWorkspace } from "../../../src/security/jail/workspace-jail.ts";
import { createWorkspaceFs } from "../../../src/workspace/workspace-fs.ts";
import { scriptedPushServer } from "../../helpers/scripted-push-server.ts";

/** More than the 64 documents a server keeps open: the first is closed by the time the last is opened. */
const FILES = 66;
const SPEC: ServerSpec = {
  id: "html-like",
  languages: ["html"],
  command: [{ onPath: "true" }],
  args: [],
  rootMarkers: [],
  readiness: { rule: "progress" },
};

let root: string;
let lsp: LspService | undefined;

beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), "watch-walk-")));
  await mkdir(join(root, "slow"));
  for (let i = 0; i < FILES; i++) await writeFile(join(root, `page${i}.html`), `<p>${i}</p>`);
});
afterEach(async () => {
  await lsp?.stop();
  await rm(root, { recursive: true, force: true });
});

it("keeps no answer before the watcher's first walk is done, and keeps them after it", async () => {
  const node = createNodeRuntime();
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  const fs = {
    ...node.fs,
    readdir: async (dir: string) => {
      if (dir === join(root, "slow")) await held;
      return node.fs.readdir(dir);
    },
  };
  const range = { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } };
  const server = scriptedPushServer(() => [{ range, message: "seen" }]);
  const runtime = { ...node, fs, languageServers: server.launcher, which: async () => "/usr/bin/true" };
  lsp = createLspService({ runtime, fs: createWorkspaceFs(node.fs, await createWorkspace(node.fs, { root })), specs: [SPEC] });
  const service = lsp;
  const askAll = async () => {
    for (let i = 0; i < FILES; i++) await service.diagnosticsFor(`page${i}.html`, { signal: AbortSignal.timeout(10_000) });
  };
  await askAll();
  expect(server.sent()).toBe(FILES);
  // page0 was closed to open the last: asked again while the walk is held, the server is asked again.
  await askAll();
  expect(server.sent()).toBeGreaterThanOrEqual(2 * FILES);
  release();
  await expect.poll(() => service.status().watchedDirectories, { timeout: 10_000 }).toBe(2);
  // The walk's end is the service's next turn; answers computed from now on are kept.
  await askAll();
  const afterWalk = server.sent();
  await askAll();
  expect(server.sent()).toBe(afterWalk);
});
