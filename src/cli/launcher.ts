// How to start this package again, for the configs init and gen-mcp-config write and for the
// bridge the shim starts: the entry must start where it will run. A config written from
// npx's cache named `claude-ide-bridge`, which exists nowhere else ("Failed to connect: ENOENT").
// No imports: the shim loads this on every start.
export const PACKAGE_NAME = "claude-ide-bridge";

export type RuntimeName = "node" | "bun" | "deno";

export interface Invocation {
  command: string;
  args: string[];
}

/**
 * Whether the package at `packageRoot` was installed by a package manager rather than checked
 * out: npx's cache, a project's or the global node_modules, or Deno's npm cache
 * (`<DENO_DIR>/npm/<registry>/<name>/<version>`). A checkout is run by its absolute path; an
 * installed copy may move or be cleaned away, so configs name the launcher instead.
 */
export function isInstalledPackage(packageRoot: string, version: string): boolean {
  const parts = packageRoot.split(/[\\/]+/).filter((p) => p !== "");
  if (parts.includes("node_modules")) return true;
  return parts.at(-1) === version && parts.at(-2) === PACKAGE_NAME;
}

/** The launcher of each runtime, as a user types it (README, "Runtimes"). */
export function launcherCommand(runtime: RuntimeName): Invocation {
  switch (runtime) {
    case "node":
      return { command: "npx", args: ["-y", PACKAGE_NAME] };
    case "bun":
      // Plain bunx obeys the bin's `node` shebang when Node is installed.
      return { command: "bunx", args: ["--bun", PACKAGE_NAME] };
    case "deno":
      return { command: "deno", args: ["run", "-A", `npm:${PACKAGE_NAME}`] };
  }
}

/** This program's script run again by the same executable: Deno needs `run -A`, and keeps no execArgv. */
export function rerunCommand(runtime: RuntimeName, self: { execPath: string; execArgv: readonly string[]; script: string }): Invocation {
  if (runtime === "deno") return { command: self.execPath, args: ["run", "-A", self.script] };
  return { command: self.execPath, args: [...self.execArgv, self.script] };
}
