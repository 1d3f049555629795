// The three runtimes the contract suite runs the bridge on, and how to start a file under each.
// Bun and Deno are the npm packages in devDependencies (node_modules/.bin); Node is this one.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { BRIDGE_BIN, REPO_ROOT } from "../helpers/spawn-bridge.ts";

export const RUNTIMES = ["node", "bun", "deno"] as const;
export type RuntimeName = (typeof RUNTIMES)[number];

export const BUN = join(REPO_ROOT, "node_modules", ".bin", "bun");
export const DENO = join(REPO_ROOT, "node_modules", ".bin", "deno");

/** The documented CLI entry of each runtime (README, "Runtimes"): [executable, ...args before the flags]. */
export function bridgeCommand(runtime: RuntimeName): [string, ...string[]] {
  switch (runtime) {
    case "node":
      return [process.execPath, BRIDGE_BIN];
    case "bun":
      return [BUN, "run", join(REPO_ROOT, "runtime", "bun.ts")];
    case "deno":
      return [DENO, "run", "-A", join(REPO_ROOT, "runtime", "deno.ts")];
  }
}

/** Runs a TypeScript file under `runtime` (on Node through tsx, which is for tests only). */
export function scriptCommand(runtime: RuntimeName, file: string): [string, ...string[]] {
  switch (runtime) {
    case "node":
      return [process.execPath, "--import", "tsx", file];
    case "bun":
      return [BUN, "run", file];
    case "deno":
      return [DENO, "run", "-A", file];
  }
}

/** The executable a process of `runtime` runs, as /proc/<pid>/exe shows it. */
export function executablePattern(runtime: RuntimeName): RegExp {
  return { node: /\/node$/, bun: /\/bun(\.exe)?$/, deno: /\/deno$/ }[runtime];
}

export function assertRuntimesInstalled(): void {
  for (const bin of [BUN, DENO]) {
    if (!existsSync(bin)) throw new Error(`${bin} is missing: bun and deno are devDependencies; run npm ci`);
  }
}
