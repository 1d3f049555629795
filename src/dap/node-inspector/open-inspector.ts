// Opens the inspector of a running Node program by its process id, as `kill -USR1` does: Node starts
// its inspector on 127.0.0.1:9229 (or the port its --inspect-port names) when it gets SIGUSR1. The
// port it opened is read from the process's listening sockets; one already open (an earlier attach)
// is found the same way. The caller has checked that the process is a node: to any other program
// SIGUSR1 is, by default, the end.
import type { ProcessTable } from "../../ports/processes.ts";
import { AdapterRefusal } from "../adapter-refusal.ts";
import { inspectorTarget } from "./inspector-url.ts";

const OPEN_WAIT_MS = 10_000;
const POLL_MS = 50;

/** The inspector's port, and whether this call opened it (the session closes it again when it detaches). */
export async function openInspector(
  processes: ProcessTable,
  pid: number,
  opts: { signal?: AbortSignal | undefined } = {},
): Promise<{ port: number; opened: boolean }> {
  const before = new Set(await processes.listeningPorts(pid));
  processes.signal(pid, "SIGUSR1");
  const deadline = performance.now() + OPEN_WAIT_MS;
  // The inspector's socket appears within milliseconds of the signal; the wait is bounded, not timed.
  while (performance.now() < deadline && opts.signal?.aborted !== true) {
    const now = await processes.listeningPorts(pid);
    const opened = now.filter((port) => !before.has(port));
    for (const port of [...opened, ...now.filter((port) => before.has(port))]) {
      if (await answersAsInspector(port)) return { port, opened: !before.has(port) };
    }
    if (opened.length > 0) break;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  throw new AdapterRefusal(
    "not_supported",
    `Node process ${pid} opened no inspector within ${OPEN_WAIT_MS} ms of SIGUSR1 (its port may be taken, or it runs with --disable-sigusr1)`,
    {
      suggestion:
        "Start the program with node --inspect=127.0.0.1:PORT and attach through a launch.json attach configuration naming the port.",
    },
  );
}

async function answersAsInspector(port: number): Promise<boolean> {
  return inspectorTarget(port).then(
    () => true,
    () => false,
  );
}
