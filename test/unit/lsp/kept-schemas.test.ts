// A push server's answer for a JSON file is kept only while the watcher hears every change to the
// schema it names (kept-diagnostics.ts): asked of the watcher for the folder the schema is named
// in and the one its real path is in (WorkspaceWatcher.hearsChange), on a real directory with a real
// watcher. A schema reached through a symlink out of the workspace, or into node_modules (whose
// packages are not watched), looks like a workspace path: changed there, it must be reported
// afresh on the next check, not answered from the kept diagnostics of the old schema.
import { readFileSync } from "node:fs";
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createNodeRuntime } from "../../../runtime/node.ts";
import { LanguageServer } from "../../../src/lsp/language-server.ts";
import type { ServerSpec } from "../../../src/lsp/server-specs.ts";
import { WorkspaceWatcher } from "../../../src/lsp/workspace-watcher.ts";
import type { WorkspacePath } from "../../../src/security/jail/workspace-path.ts";
import { scriptedPushServer } from "../../helpers/scripted-push-server.ts";

const SPEC: ServerSpec = { id: "json-like", languages: ["json"], command: [], args: [], rootMarkers: [], readiness: { rule: "progress" } };

let base: string;
let ws: string;
let watcher: WorkspaceWatcher | undefined;

beforeEach(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), "kept-schemas-")));
  ws = join(base, "ws");
  const files: Record<string, string> = {
    "outside/s.json": "outside v1",
    "ws/schemas/own.json": "own v1",
    "ws/node_modules/pkg/s.json": "package v1",
    "ws/.schemas/hidden.json": "hidden v1",
    "ws/dist/s.json": "built v1",
  };
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(base, path)), { recursive: true });
    await writeFile(join(base, path), text);
  }
  await mkdir(join(ws, "config"));
  // A folder linked out of the workspace, a file linked out of it, and a folder linked into node_modules.
  await symlink(join(base, "outside"), join(ws, "config", "linked"));
  await symlink(join(base, "outside", "s.json"), join(ws, "config", "direct.schema.json"));
  await symlink(join(ws, "node_modules", "pkg"), join(ws, "config", "vendor"));
  watcher = new WorkspaceWatcher(createNodeRuntime().fs, () => {});
  await watcher.start([ws]);
});
afterEach(async () => {
  watcher?.close();
  await rm(base, { recursive: true, force: true });
});

/** A push server that validates a document against the schema it names, read from disk when it is sent (as the JSON server does). */
async function schemaServer(hears: (path: string) => Promise<boolean>) {
  const scripted = scriptedPushServer((doc) => {
    const path = decodeURIComponent(new URL(doc.uri).pathname);
    const schema = resolve(dirname(path), (JSON.parse(doc.text ?? "{}") as { $schema: string }).$schema);
    const range = { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } };
    return [{ range, message: readFileSync(schema, "utf8") }];
  });
  const launch = {
    spec: SPEC,
    root: ws,
    command: "json-like",
    args: [],
    env: {},
    initializationOptions: undefined,
    settings: {},
    processId: 1,
  };
  const server = await LanguageServer.start(scripted.launcher, launch, {
    readText: async (path) => readFileSync(path, "utf8"),
    onDiagnosticsChanged: () => {},
    watching: () => true,
    hears,
  });
  /** The message of the file's diagnostic (its schema's text), then the file closed, as past the 64 a server keeps open. */
  const check = async (rel: string) => {
    const file = join(ws, rel) as WorkspacePath;
    const found = await server.diagnosticsFor(file, "json", { deadline: Date.now() + 10_000, signal: AbortSignal.timeout(10_000) });
    await server.close(file);
    return found.items.map((d) => d.message).join();
  };
  return { check, sent: scripted.sent };
}

describe("a kept pushed answer and the schema it names", () => {
  const cases = [
    { name: "a folder linked out of the workspace", ref: "./linked/s.json", real: "outside/s.json", was: "outside v1" },
    { name: "a file linked out of the workspace", ref: "./direct.schema.json", real: "outside/s.json", was: "outside v1" },
    { name: "a folder linked into node_modules", ref: "./vendor/s.json", real: "ws/node_modules/pkg/s.json", was: "package v1" },
  ];
  for (const c of cases) {
    it(`is reported afresh when the schema, reached through ${c.name}, changes there`, async () => {
      const w = watcher as WorkspaceWatcher;
      await writeFile(join(ws, "config", "data.json"), JSON.stringify({ $schema: c.ref }));
      const { check, sent } = await schemaServer((path) => w.hearsChange(path));
      expect(await check("config/data.json")).toBe(c.was);
      // Edited in place where the watcher does not listen: no event, so the workspace state stays.
      await writeFile(join(base, c.real), "changed");
      expect(await check("config/data.json")).toBe("changed");
      expect(sent()).toBe(2);
    });
  }

  it("is kept while a schema the watcher hears is unchanged, a hidden folder's too", async () => {
    const w = watcher as WorkspaceWatcher;
    await writeFile(join(ws, "config", "a.json"), JSON.stringify({ $schema: "../schemas/own.json" }));
    await writeFile(join(ws, "config", "b.json"), JSON.stringify({ $schema: "../.schemas/hidden.json" }));
    const { check, sent } = await schemaServer((path) => w.hearsChange(path));
    for (let i = 0; i < 2; i++) {
      expect(await check("config/a.json")).toBe("own v1");
      expect(await check("config/b.json")).toBe("hidden v1");
    }
    expect(sent()).toBe(2);
  });
});

describe("WorkspaceWatcher.hearsChange", () => {
  it("hears a file whose folder and real folder it watches, for the names it listens to", async () => {
    const w = watcher as WorkspaceWatcher;
    expect(await w.hearsChange(join(ws, "schemas", "own.json"))).toBe(true);
    expect(await w.hearsChange(join(ws, ".schemas", "hidden.json"))).toBe(true);
    // Not there yet: heard appearing in its watched folder.
    expect(await w.hearsChange(join(ws, "schemas", "later.json"))).toBe(true);
    // A package install rewrites the lock file at node_modules' top, which is heard; nothing below it is.
    expect(await w.hearsChange(join(ws, "node_modules", ".package-lock.json"))).toBe(true);
    expect(await w.hearsChange(join(ws, "node_modules", "pkg", "s.json"))).toBe(false);
    expect(await w.hearsChange(join(ws, "node_modules", "other.json"))).toBe(false);
  });

  it("does not hear a file reached through a link out of what it watches, nor one outside the workspace", async () => {
    const w = watcher as WorkspaceWatcher;
    expect(await w.hearsChange(join(ws, "config", "linked", "s.json"))).toBe(false);
    expect(await w.hearsChange(join(ws, "config", "direct.schema.json"))).toBe(false);
    expect(await w.hearsChange(join(ws, "config", "vendor", "s.json"))).toBe(false);
    expect(await w.hearsChange(join(base, "outside", "s.json"))).toBe(false);
    // A dangling link: its target appearing out there is not heard.
    await symlink(join(base, "outside", "none.json"), join(ws, "config", "dangling.json"));
    expect(await w.hearsChange(join(ws, "config", "dangling.json"))).toBe(false);
    // A link to a watched file is heard: the link's folder and the target's are both watched.
    await symlink(join(ws, "schemas", "own.json"), join(ws, "config", "own-link.json"));
    expect(await w.hearsChange(join(ws, "config", "own-link.json"))).toBe(true);
  });

  it("through node_modules' lock file when asked so, but not where a link leads out of the workspace, nor in a skipped folder", async () => {
    const w = watcher as WorkspaceWatcher;
    const lock = { throughLockFiles: true };
    await symlink(join(base, "outside"), join(ws, "node_modules", "linked"));
    await symlink(join(ws, "node_modules", "pkg"), join(ws, "node_modules", "inside"));
    expect(await w.hearsChange(join(ws, "node_modules", "pkg", "s.json"), lock)).toBe(true);
    expect(await w.hearsChange(join(ws, "node_modules", "inside", "s.json"), lock)).toBe(true);
    expect(await w.hearsChange(join(ws, "node_modules"), lock)).toBe(true);
    expect(await w.hearsChange(join(ws, "node_modules", "linked", "s.json"), lock)).toBe(false);
    expect(await w.hearsChange(join(ws, "node_modules", "linked"), lock)).toBe(false);
    expect(await w.hearsChange(join(ws, "config", "vendor", "s.json"), lock)).toBe(false);
    expect(await w.hearsChange(join(ws, "dist", "s.json"), lock)).toBe(false);
  });
});
