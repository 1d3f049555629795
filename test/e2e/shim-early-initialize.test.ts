// A shim that starts its bridge answers initialize itself, before the bridge is up
// (src/startup/predicted-initialize.ts), and the client must see exactly what the bridge would have
// said: here the answers (server/discover, initialize) of a shim that starts the bridge against those of a shim that reaches
// the same bridge running, for the default configuration and for one with toolsets turned off and
// --slim; the tools listed through both, and nothing else said to the client.
import { describe, expect, it } from "vitest";
import { makeHome, runCli, startShim, type Json } from "./shim-support.ts";

/** Not inside a Claude Code session of whoever runs the tests: the shim must find the project itself. */
const NO_PROJECT_DIR = { CLAUDE_PROJECT_DIR: "" };
const DISCOVER = {
  _meta: {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {},
    "io.modelcontextprotocol/clientInfo": { name: "shim-e2e", version: "0" },
  },
};
const INIT = { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "shim-e2e", version: "0" } };

describe.each([
  ["the default configuration", []],
  ["toolsets turned off and --slim", ["--exclude-toolsets", "git,debug", "--slim"]],
])("initialize answered by the shim that starts the bridge, with %s", (_, bridgeArgs) => {
  it("is the bridge's own answer, given before the bridge is reached; server/discover too", async () => {
    const home = await makeHome();
    const early = startShim({
      cwd: home.workspace,
      configDir: home.configDir,
      spawn: true,
      args: ["--", ...bridgeArgs],
      env: NO_PROJECT_DIR,
    });
    let stopped = false;
    try {
      const earlyDiscover = await early.request("probe", "server/discover", DISCOVER, 60_000);
      const earlyInit = await early.request(1, "initialize", INIT, 60_000);
      // The answer came from the shim: it had not reached the bridge yet when it gave it.
      expect(early.stderr()).toMatch(/started a bridge for/);
      expect(early.stderr()).not.toMatch(/connected to the bridge/);
      early.send({ jsonrpc: "2.0", method: "notifications/initialized" });
      const earlyTools = await early.request(2, "tools/list", {}, 60_000);

      const direct = startShim({ cwd: home.workspace, configDir: home.configDir, env: NO_PROJECT_DIR });
      try {
        const directDiscover = await direct.request("probe", "server/discover", DISCOVER, 30_000);
        expect(JSON.stringify(earlyDiscover)).toBe(JSON.stringify(directDiscover));
        const directInit = await direct.request(1, "initialize", INIT, 30_000);
        direct.send({ jsonrpc: "2.0", method: "notifications/initialized" });
        const directTools = await direct.request(2, "tools/list", {}, 30_000);
        expect(JSON.stringify(earlyInit)).toBe(JSON.stringify(directInit));
        expect(earlyTools).toEqual(directTools);
      } finally {
        await direct.stop();
      }
      const instructions = String((earlyInit.result as Json).instructions);
      expect(instructions.includes("- git:")).toBe(bridgeArgs.length === 0);
      // The replayed initialize was the bridge's answer too: no warning, no list_changed to the client.
      expect(early.lines.map((m) => m.method).filter(Boolean)).toEqual([]);
      expect(early.stderr()).not.toMatch(/answered initialize with|did not answer the replayed/);
      expect(early.junk).toEqual([]);
      const stop = await runCli(["stop"], { cwd: home.workspace, configDir: home.configDir });
      expect(stop.code, stop.stderr).toBe(0);
      stopped = true;
    } finally {
      await early.stop();
      if (!stopped) await runCli(["stop"], { cwd: home.workspace, configDir: home.configDir });
      await home.remove();
    }
  });
});
