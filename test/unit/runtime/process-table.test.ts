// Runtime.processes (runtime/shared/process-table.ts) on this very process, from Linux's /proc: its
// owner, parent, executable, working directory and command line, the loopback port a server of its
// own listens on, found from either side, and nothing for a process that does not exist.
import { realpathSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { linuxProcessTable } from "../../../runtime/shared/process-table.ts";

const table = linuxProcessTable();
let server: Server;
let port: number;

beforeAll(async () => {
  server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  port = typeof address === "object" && address !== null ? address.port : 0;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe.runIf(process.platform === "linux")("the Linux process table", () => {
  it("describes a live process and nothing for a pid that does not exist", async () => {
    expect(table?.ownPid).toBe(process.pid);
    const me = await table?.describe(process.pid);
    expect(me).toMatchObject({
      pid: process.pid,
      parentPid: process.ppid,
      uid: process.getuid?.(),
      effectiveUid: process.geteuid?.(),
      executable: realpathSync(process.execPath),
      cwd: realpathSync(process.cwd()),
    });
    expect(me?.argv[0]).toBe(process.argv0);
    expect(Math.abs((me?.startedAtMs ?? 0) - (Date.now() - process.uptime() * 1000))).toBeLessThan(5000);
    expect(await table?.describe(2 ** 22 + 1)).toBeUndefined();
    expect(await table?.describe(-1)).toBeUndefined();
  });

  it("finds the port a process listens on, and the process listening on a port", async () => {
    expect(await table?.listeningPorts(process.pid)).toContain(port);
    expect(await table?.listenerOf(port)).toBe(process.pid);
  });

  it("reads Yama's ptrace scope when the kernel has it", async () => {
    const scope = await table?.ptraceScope();
    expect(scope === undefined || [0, 1, 2, 3].includes(scope)).toBe(true);
  });
});
