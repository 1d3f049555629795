// doctor's lines about the running bridge's language servers, from the /health body the bridge
// sends (src/lsp/lsp-health.ts builds it): each server's memory, the pool against its caps, and a
// warning near the memory cap.
import { expect, it } from "vitest";
import { runningServerChecks } from "../../../src/cli/doctor-lsp.ts";
import { languageServerHealth } from "../../../src/lsp/lsp-health.ts";

const MiB = 2 ** 20;

function health(memory: (number | undefined)[], cap = 1536 * MiB) {
  const servers = memory.map((m, i) => ({
    id: i === 0 ? "tsgo" : "pyright",
    root: `/w/p${i}`,
    state: "running",
    ...(m === undefined ? {} : { memoryBytes: m }),
  }));
  const known = memory.every((m) => m !== undefined);
  return {
    status: "ok",
    languageServers: languageServerHealth({
      servers,
      limits: { maxServers: 16, maxMemoryBytes: cap, ...(known ? { memoryBytes: memory.reduce<number>((a, m) => a + (m ?? 0), 0) } : {}) },
    } as unknown as Parameters<typeof languageServerHealth>[0]),
  };
}

it("shows each running server's memory and the pool's total against its caps", () => {
  const checks = runningServerChecks(health([150 * MiB, 90 * MiB]), { cli: "claude-ide-bridge" });
  expect(checks).toEqual([
    { area: "language servers", status: "ok", summary: "2 known, 240 MiB together; caps 16 servers, 1536 MiB" },
    { area: "language server", status: "info", summary: "running: tsgo (running, 150 MiB) for /w/p0" },
    { area: "language server", status: "info", summary: "running: pyright (running, 90 MiB) for /w/p1" },
  ]);
});

it("warns near the memory cap, with what to do", () => {
  const [pool] = runningServerChecks(health([900 * MiB, 400 * MiB]), { cli: "claude-ide-bridge" });
  expect(pool).toMatchObject({
    status: "warn",
    summary: expect.stringContaining("1300 MiB together"),
    fix: expect.stringContaining("--lsp-memory-mb"),
  });
});

it("says unknown where memory cannot be read, and nothing for a bridge without the field", () => {
  const checks = runningServerChecks(health([undefined]), { cli: "x" });
  expect(checks.map((c) => c.summary)).toEqual([
    "1 known, memory unknown together; caps 16 servers, 1536 MiB",
    "running: tsgo (running, memory unknown) for /w/p0",
  ]);
  expect(runningServerChecks({ status: "ok" }, { cli: "x" })).toEqual([]);
});
