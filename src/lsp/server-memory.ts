// The resident memory of a language server: its process and every process it started (tsserver
// under typescript-language-server, clangd's workers), read from Linux's /proc through the
// runtime's filesystem port. Elsewhere (no /proc) it is unknown, and the pool's memory cap is then
// not enforced; status and doctor say "unknown" rather than 0.
import type { Fs } from "../ports/fs.ts";

const MAX_PROCESSES = 64;

export async function residentBytes(fs: Pick<Fs, "readTextFile">, pid: number): Promise<number | undefined> {
  let total = 0;
  const queue = [pid];
  for (let seen = 0; queue.length > 0 && seen < MAX_PROCESSES; seen++) {
    const next = queue.shift() as number;
    const status = await fs.readTextFile(`/proc/${next}/status`).catch(() => undefined);
    if (status === undefined) {
      // The server itself unreadable: nothing known. A child that exited meanwhile: nothing to count.
      if (next === pid) return undefined;
      continue;
    }
    const kib = /^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1];
    total += kib === undefined ? 0 : Number(kib) * 1024;
    const children = await fs.readTextFile(`/proc/${next}/task/${next}/children`).catch(() => "");
    for (const child of children.trim().split(/\s+/)) if (/^\d+$/.test(child)) queue.push(Number(child));
  }
  return total;
}
