// The command init, gen-mcp-config and the start-up line write: it must start where it
// will run. A checkout by its absolute bin path; an installed copy by its runtime's launcher; the
// claude-ide-bridge on PATH when that is this very copy. And how the shim runs itself again.
import { describe, expect, it } from "vitest";
import { isInstalledPackage, launcherCommand, rerunCommand } from "../../../src/cli/launcher.ts";
import { selfInvocation } from "../../../src/cli/self-invocation.ts";
import type { Runtime } from "../../../src/ports/runtime.ts";
import { PACKAGE_VERSION } from "../../../src/version.ts";

/** What selfInvocation asks: which copy is on PATH, and realpaths (here every path is real). */
function fakeRuntime(name: Runtime["name"], onPath: Record<string, string> = {}) {
  return { name, which: async (cmd: string) => onPath[cmd], fs: { realpath: async (p: string) => p } };
}

describe("isInstalledPackage", () => {
  it("tells installed copies from checkouts", () => {
    expect(isInstalledPackage("/root/.npm/_npx/1a2b/node_modules/claude-ide-bridge", "0.1.0")).toBe(true);
    expect(isInstalledPackage("/home/me/app/node_modules/claude-ide-bridge", "0.1.0")).toBe(true);
    expect(isInstalledPackage("/usr/lib/node_modules/claude-ide-bridge", "0.1.0")).toBe(true);
    expect(isInstalledPackage("/home/me/.cache/deno/npm/some-registry/claude-ide-bridge/0.1.0", "0.1.0")).toBe(true);
    expect(isInstalledPackage("/home/me/src/claude-ide-bridge", "0.1.0")).toBe(false);
    expect(isInstalledPackage("/home/me/releases/0.1.0", "0.1.0")).toBe(false);
  });
});

describe("selfInvocation", () => {
  const checkout = "/home/me/src/claude-ide-bridge/bin/claude-ide-bridge.js";
  const npx = "/root/.npm/_npx/1a2b/node_modules/claude-ide-bridge/bin/claude-ide-bridge.js";
  const deno = `/home/me/.cache/deno/npm/r/claude-ide-bridge/${PACKAGE_VERSION}/bin/claude-ide-bridge.js`;

  it("a checkout: the runtime and the absolute bin path", async () => {
    expect(await selfInvocation(fakeRuntime("node"), checkout)).toEqual({ command: "node", args: [checkout] });
    expect(await selfInvocation(fakeRuntime("bun"), checkout)).toEqual({ command: "bun", args: [checkout] });
    expect(await selfInvocation(fakeRuntime("deno"), checkout)).toEqual({ command: "deno", args: ["run", "-A", checkout] });
  });

  it("an installed copy: the launcher of the runtime it runs on", async () => {
    expect(await selfInvocation(fakeRuntime("node"), npx)).toEqual({ command: "npx", args: ["-y", "claude-ide-bridge"] });
    expect(await selfInvocation(fakeRuntime("bun"), npx)).toEqual({ command: "bunx", args: ["--bun", "claude-ide-bridge"] });
    expect(await selfInvocation(fakeRuntime("deno"), deno)).toEqual({ command: "deno", args: ["run", "-A", "npm:claude-ide-bridge"] });
    expect(await selfInvocation(fakeRuntime("node"), undefined)).toEqual(launcherCommand("node"));
  });

  it("the claude-ide-bridge on PATH when it is this copy (npm i -g, npm link), not another one", async () => {
    expect(await selfInvocation(fakeRuntime("node", { "claude-ide-bridge": checkout }), checkout)).toEqual({
      command: "claude-ide-bridge",
      args: [],
    });
    expect(await selfInvocation(fakeRuntime("node", { "claude-ide-bridge": "/usr/bin/elsewhere" }), checkout)).toEqual({
      command: "node",
      args: [checkout],
    });
    // npx puts the package's node_modules/.bin on PATH for its own run only.
    const npxBin = "/root/.npm/_npx/1a2b/node_modules/.bin/claude-ide-bridge";
    const linked = { name: "node" as const, which: async () => npxBin, fs: { realpath: async () => npx } };
    expect(await selfInvocation(linked, npx)).toEqual({ command: "npx", args: ["-y", "claude-ide-bridge"] });
  });
});

it("rerunCommand: Deno needs run -A; Node and Bun keep their flags", () => {
  expect(rerunCommand("deno", { execPath: "/bin/deno", execArgv: [], script: "/x/bin.js" })).toEqual({
    command: "/bin/deno",
    args: ["run", "-A", "/x/bin.js"],
  });
  expect(rerunCommand("node", { execPath: "/bin/node", execArgv: ["--no-warnings"], script: "/x/bin.js" })).toEqual({
    command: "/bin/node",
    args: ["--no-warnings", "/x/bin.js"],
  });
});
