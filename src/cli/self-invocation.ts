// How an MCP client should start this program (`<command> <args…> shim`), decided where it runs,
// since a command that only works here fails in the client ("Failed to connect"): the
// `claude-ide-bridge` on PATH when that is this very copy installed globally (npm i -g, npm link;
// not a node_modules/.bin that npx put on PATH for this one run); the runtime's launcher when this copy was installed by a package manager (npx's cache, a project's
// node_modules, Deno's npm cache); and a checkout by the absolute path of its bin script.
import type { Runtime } from "../ports/runtime.ts";
import { dirname } from "../lib/paths/posix-path.ts";
import { PACKAGE_VERSION } from "../version.ts";
import { isInstalledPackage, launcherCommand, PACKAGE_NAME, type Invocation } from "./launcher.ts";

/** `bin`: the real path of bin/claude-ide-bridge.js of this copy, when there is one. */
export async function selfInvocation(
  runtime: Pick<Runtime, "name" | "which"> & { fs: Pick<Runtime["fs"], "realpath"> },
  bin: string | undefined,
): Promise<Invocation> {
  if (bin === undefined) return launcherCommand(runtime.name);
  const onPath = await runtime.which(PACKAGE_NAME);
  // node_modules/.bin is on PATH only inside npx and npm scripts: not where the client runs it.
  const globalBin = onPath !== undefined && !/[\\/]node_modules[\\/]\.bin[\\/]/.test(onPath);
  if (globalBin && (await runtime.fs.realpath(onPath).catch(() => "")) === bin) return { command: PACKAGE_NAME, args: [] };
  if (isInstalledPackage(dirname(dirname(bin)), PACKAGE_VERSION)) return launcherCommand(runtime.name);
  switch (runtime.name) {
    case "node":
      return { command: "node", args: [bin] };
    case "bun":
      return { command: "bun", args: [bin] };
    case "deno":
      return { command: "deno", args: ["run", "-A", bin] };
  }
}

/** The words as a shell line, quoted where needed. */
export function shellLine(cmd: Invocation): string {
  return [cmd.command, ...cmd.args].map((w) => (/^[A-Za-z0-9_@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`)).join(" ");
}
