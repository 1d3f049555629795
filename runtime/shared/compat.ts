// The Runtime members that node: modules give identically on Node, Bun and Deno (fs, DNS, pinned
// HTTP, process questions and signals), so each runtime file adds only what differs. The pinned
// fetch (https, tls) loads on first use: few calls need it, and every start paid for it (about 6 ms
// of CPU, bench/startup-profile.mjs). It is one of the bundle's own modules: an import() of a
// built-in would not run in the bundle (vm.Script has no loader for it; scripts/bundle.mjs refuses it).
import { lookup } from "node:dns/promises";
import { homedir, tmpdir } from "node:os";
import { createNodeFs } from "./fs.ts";
import { processAlive, processStartTime } from "./process.ts";
import { linuxProcessTable } from "./process-table.ts";
import { onShutdown } from "./shutdown.ts";
import { tcpConnector } from "./tcp-connect.ts";
import type { Runtime } from "../../src/ports/runtime.ts";

type SharedMembers = Pick<
  Runtime,
  "fs" | "resolveHost" | "fetchPinned" | "env" | "paths" | "pid" | "platform" | "processAlive" | "processStartTime" | "onShutdown" | "tcp"
> &
  Pick<Runtime, "processes">;

export function sharedMembers(env: Readonly<Record<string, string | undefined>>): SharedMembers {
  const platform = process.platform;
  return {
    fs: createNodeFs(),
    resolveHost: async (host) => (await lookup(host, { all: true, verbatim: true })).map((a) => a.address),
    fetchPinned: async (url, init) => (await import("./fetch-pinned.ts")).fetchPinned(url, init),
    env,
    paths: Object.freeze({ home: homedir(), cwd: process.cwd(), tmp: tmpdir() }),
    pid: process.pid,
    platform: platform === "linux" || platform === "darwin" || platform === "win32" ? platform : "other",
    processAlive,
    processStartTime,
    onShutdown,
    tcp: tcpConnector,
    processes: linuxProcessTable(),
  };
}
