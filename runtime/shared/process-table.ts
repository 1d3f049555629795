// Runtime.processes (src/ports/processes.ts) from Linux's /proc, which Node, Bun and Deno all read
// through node:fs: a process's owner and parent (status), executable and working directory (the
// exe and cwd links), command line, and its listening TCP sockets (net/tcp and net/tcp6 name a
// socket's inode and port; the process's fd links name the inodes it holds).
import { readdir, readFile, readlink } from "node:fs/promises";
import type { ProcessFacts, ProcessTable } from "../../src/ports/processes.ts";
import { processStartTime } from "./process.ts";

/** The TCP state column's value for a listening socket. */
const TCP_LISTEN = "0A";

export function linuxProcessTable(): ProcessTable | undefined {
  if (process.platform !== "linux") return undefined;
  return {
    ownPid: process.pid,
    describe,
    async listeningPorts(pid) {
      const [listening, inodes] = await Promise.all([listeningSockets(), socketInodes(pid)]);
      const ports = new Set<number>();
      for (const inode of inodes) {
        const port = listening.get(inode);
        if (port !== undefined) ports.add(port);
      }
      return [...ports].sort((a, b) => a - b);
    },
    listenerOf: holderOf,
    async ptraceScope() {
      const text = await readFile("/proc/sys/kernel/yama/ptrace_scope", "utf8").catch(() => undefined);
      const scope = Number(text?.trim());
      return text === undefined || !Number.isInteger(scope) ? undefined : scope;
    },
    signal(pid, name) {
      process.kill(pid, name);
    },
  };
}

async function describe(pid: number): Promise<ProcessFacts | undefined> {
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  const status = await readFile(`/proc/${pid}/status`, "utf8").catch(() => undefined);
  if (status === undefined) return undefined;
  const uids = /^Uid:\s+(\d+)\s+(\d+)/m.exec(status);
  const parent = /^PPid:\s+(\d+)/m.exec(status);
  if (uids === null || parent === null) return undefined;
  const [executable, cwd, cmdline, startedAtMs] = await Promise.all([
    readlink(`/proc/${pid}/exe`).catch(() => undefined),
    readlink(`/proc/${pid}/cwd`).catch(() => undefined),
    readFile(`/proc/${pid}/cmdline`, "utf8").catch(() => ""),
    processStartTime(pid),
  ]);
  return {
    pid,
    parentPid: Number(parent[1]),
    uid: Number(uids[1]),
    effectiveUid: Number(uids[2]),
    // A replaced or deleted executable reads "/path (deleted)": it is not the file at that path any more.
    executable: executable === undefined || executable.endsWith(" (deleted)") ? undefined : executable,
    cwd,
    argv: cmdline.split("\0").filter((arg, i, all) => arg !== "" || i < all.length - 1),
    startedAtMs,
  };
}

/** The first process holding a listening TCP socket on the port. */
async function holderOf(port: number): Promise<number | undefined> {
  const wanted = new Set([...(await listeningSockets())].filter(([, p]) => p === port).map(([inode]) => inode));
  if (wanted.size === 0) return undefined;
  for (const name of await readdir("/proc").catch(() => [])) {
    if (!/^\d+$/.test(name)) continue;
    const inodes = await socketInodes(Number(name));
    if (inodes.some((inode) => wanted.has(inode))) return Number(name);
  }
  return undefined;
}

/** Inode -> port of every listening TCP socket (IPv4 and IPv6). */
async function listeningSockets(): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    const text = await readFile(table, "utf8").catch(() => "");
    for (const line of text.split("\n").slice(1)) {
      // sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode
      const fields = line.trim().split(/\s+/);
      const local = fields[1];
      if (local === undefined || fields[3] !== TCP_LISTEN || fields[9] === undefined) continue;
      out.set(fields[9], Number.parseInt(local.slice(local.lastIndexOf(":") + 1), 16));
    }
  }
  return out;
}

/** The inodes of the sockets a process holds open (none when its fds cannot be read). */
async function socketInodes(pid: number): Promise<string[]> {
  const fds = await readdir(`/proc/${pid}/fd`).catch(() => []);
  const links = await Promise.all(fds.map((fd) => readlink(`/proc/${pid}/fd/${fd}`).catch(() => "")));
  return links.flatMap((link) => /^socket:\[(\d+)\]$/.exec(link)?.[1] ?? []);
}
