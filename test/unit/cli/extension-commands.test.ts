// install-extension's arguments and what it says when no editor CLI is on PATH (none is run here),
// and doctor's reading of the bridge's /health extension state. The install itself and doctor's
// "installed in code-server" run against a real code-server in test/e2e/vscode-ide.test.ts (its editor cases).
import { rm } from "node:fs/promises";
import { afterEach, beforeEach, expect, it } from "vitest";
import { commandContext, makeCommandScratch, type CommandScratch } from "../../helpers/command-context.ts";
import { extensionConnectionCheck } from "../../../src/cli/doctor-extension.ts";
import { installExtension } from "../../../src/cli/install-extension.ts";

let scratch: CommandScratch;

beforeEach(async () => {
  scratch = await makeCommandScratch();
});
afterEach(async () => {
  await rm(scratch.dir, { recursive: true, force: true });
});

/** A context on a machine without any editor CLI on PATH. */
function noEditors() {
  const ctx = commandContext(scratch, { cwd: scratch.project });
  ctx.runtime = { ...ctx.runtime, which: async () => undefined };
  return ctx;
}

it("install-extension refuses an unknown editor and says which it knows", async () => {
  const ctx = noEditors();
  expect(await installExtension(ctx, ["vim"])).toBe(2);
  expect(ctx.stderr).toBe('unknown editor "vim": one of code, cursor, windsurf, code-server');
});

it("install-extension says how to get an editor's CLI when none is on PATH", async () => {
  const ctx = noEditors();
  expect(await installExtension(ctx, [])).toBe(1);
  expect(ctx.stderr).toMatch(/^none of code, cursor, windsurf, code-server is on PATH; in VS Code run "Shell Command/);
  const named = noEditors();
  expect(await installExtension(named, ["cursor"])).toBe(1);
  expect(named.stderr).toBe("cursor is not on PATH; install its command-line launcher first");
});

it("install-extension --help prints its usage", async () => {
  const ctx = noEditors();
  expect(await installExtension(ctx, ["--help"])).toBe(0);
  expect(ctx.stdout).toMatch(/^Usage: claude-ide-bridge install-extension \[code\|cursor\|windsurf\|code-server\]/);
});

it("doctor reads the extension's state from the bridge's /health", () => {
  expect(
    extensionConnectionCheck({
      status: "ok",
      extension: { state: "connected", info: { appName: "code-server", ideVersion: "1.100.3", extensionVersion: "0.1.0" } },
    }),
  ).toEqual({ area: "extension", status: "ok", summary: "connected to the bridge (code-server 1.100.3, extension 0.1.0)" });
  expect(extensionConnectionCheck({ extension: { state: "not_answering" } })).toMatchObject({
    status: "warn",
    summary: "connected but not answering (the bridge's circuit breaker is open)",
  });
  expect(extensionConnectionCheck({ extension: { state: "disconnected" } })).toMatchObject({
    status: "info",
    summary: "not connected to the bridge (disconnected); editor tools answer headless or not at all",
  });
  // A bridge too old to report it.
  expect(extensionConnectionCheck({ status: "ok" })).toMatchObject({ status: "info", summary: expect.stringContaining("(unknown)") });
});
