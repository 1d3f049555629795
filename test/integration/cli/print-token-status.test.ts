// print-token and status against lock files and a live /health (split from test/unit/cli/commands.test.ts):
// a lock of a dead process is made by starting a child that exits, so these run as integration tests.
import { spawnSync } from "node:child_process";
import { rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { commandContext, makeCommandScratch } from "../../helpers/command-context.ts";
import { printToken } from "../../../src/cli/print-token.ts";
import { status } from "../../../src/cli/status.ts";

let dir: string;
let project: string;
let configDir: string;

beforeEach(async () => {
  ({ dir, project, configDir } = await makeCommandScratch());
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const context = (cwd = project) => commandContext({ dir, project, configDir }, { cwd });

describe("print-token and status", () => {
  let server: Server;
  let port: number;
  const token = "0123456789abcdef0123456789abcdef";

  beforeEach(async () => {
    server = createServer((req, res) => {
      const ok = req.url === "/health" && req.headers.authorization === `Bearer ${token}`;
      res.writeHead(ok ? 200 : 401, { "content-type": "application/json" });
      res.end(
        JSON.stringify(
          ok
            ? {
                status: "ok",
                version: "0.1.0",
                uptimeMs: 65_000,
                activeSessions: 1,
                sessionsInGrace: 2,
                tools: 6,
                languageServers: {
                  servers: [{ id: "tsgo", root: "/w", state: "running", memoryBytes: 150 * 2 ** 20 }],
                  maxServers: 16,
                  maxMemoryBytes: 1536 * 2 ** 20,
                  memoryBytes: 150 * 2 ** 20,
                },
              }
            : { error: "unauthorized" },
        ),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as { port: number }).port;
  });
  afterEach(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  async function writeLock(lockPort: number, fields: Record<string, unknown>): Promise<void> {
    const lock = {
      pid: process.pid,
      workspace: project,
      workspaceFolders: [project],
      ideName: "claude-ide-bridge",
      transport: "ws",
      authToken: token,
      isBridge: true,
      ...fields,
    };
    await writeFile(join(configDir, "ide", `${lockPort}.lock`), JSON.stringify(lock));
  }

  it("print-token prints the token of the bridge for the directory, or of --port, and nothing else", async () => {
    await writeLock(port, {});
    const ctx = context(join(project, "src"));
    expect(await printToken(ctx, [])).toBe(0);
    expect(ctx.stdout).toBe(`${token}\n`);
    const byPort = context(dir);
    expect(await printToken(byPort, ["--port", String(port)])).toBe(0);
    expect(byPort.stdout).toBe(`${token}\n`);
    const elsewhere = context(dir);
    expect(await printToken(elsewhere, [])).toBe(1);
    expect(elsewhere.stdout).toBe("");
    expect(elsewhere.stderr).toMatch(/no running bridge whose workspace contains/);
  });

  it("print-token skips locks of dead processes", async () => {
    await writeLock(port, { pid: spawnSync(process.execPath, ["-e", "0"]).pid });
    const ctx = context();
    expect(await printToken(ctx, [])).toBe(1);
  });

  it("status shows lock, pid and /health; --json for scripts; never the token", async () => {
    await writeLock(port, {});
    await writeLock(1025, { pid: spawnSync(process.execPath, ["-e", "0"]).pid });
    const human = context();
    expect(await status(human, [])).toBe(0);
    expect(human.stdout).toMatch(new RegExp(`claude-ide-bridge on port ${port} \\(pid ${process.pid} running\\) for ${project}`));
    expect(human.stdout).toMatch(/health: ok, version 0\.1\.0, up 1m 5s, 1 session\(s\) connected, 2 in grace, 6 tools/);
    expect(human.stdout).toContain(
      "language servers: 1 known, 150 MiB together; caps 16 servers, 1536 MiB\n    tsgo (running, 150 MiB) for /w\n",
    );
    expect(human.stdout).toMatch(/port 1025 \(pid \d+ not running\)[\s\S]*unavailable \(process not running \(stale lock file\)\)/);
    const json = context();
    expect(await status(json, ["--json", "--port", "1025"])).toBe(1);
    const parsed = JSON.parse(json.stdout) as { healthy: boolean; bridges: Array<{ port: number; alive: boolean }> };
    expect(parsed).toMatchObject({ healthy: false, bridges: [{ port: 1025, alive: false }] });
    expect(human.stdout + json.stdout).not.toContain(token);
  });

  it("status names the lock the shim would use here, and says why it skips others", async () => {
    await writeLock(port, {});
    await writeLock(1026, { transport: "sse" });
    await writeLock(1027, { pid: undefined });
    const human = context(join(project, "src"));
    expect(await status(human, [])).toBe(0);
    expect(human.stdout).toMatch(/port 1026 \(pid \d+ running\)[\s\S]*skipped by the shim and print-token: not a WebSocket lock/);
    expect(human.stdout).toMatch(/port 1027 \(no pid, not running\)[\s\S]*unavailable \(process not running \(stale lock file\)\)/);
    expect(human.stdout).toContain(`In ${join(project, "src")} the shim and print-token use port ${port}.`);
    const elsewhere = context(dir);
    await status(elsewhere, []);
    expect(elsewhere.stdout).toContain(`In ${dir} the shim finds no usable lock.`);
  });

  it("print-token --port says why it passed the port's lock over", async () => {
    await writeLock(1028, { pid: 0 });
    const ctx = context();
    expect(await printToken(ctx, ["--port", "1028"])).toBe(1);
    expect(ctx.stderr).toMatch(/no running bridge on port 1028 \(process not running \(stale lock file\)\)/);
  });

  it("status says when no bridge runs", async () => {
    const ctx = context();
    expect(await status(ctx, [])).toBe(1);
    expect(ctx.stdout).toMatch(/No bridge is running/);
  });
});
