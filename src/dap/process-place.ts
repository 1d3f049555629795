// Whether a process belongs to the workspace, as the attach rules ask it: its executable or its
// working directory lies inside a workspace folder (what /proc says, links resolved). And, before a
// byte goes to a debugger listening on a loopback port, which process listens there and whether it
// is the workspace's: a launch.json may come with the repository and name any port.
import { isInside } from "../lib/paths/posix-path.ts";
import type { ProcessFacts, ProcessTable } from "../ports/processes.ts";
import { AdapterRefusal } from "./adapter-refusal.ts";

export function inWorkspace(facts: Pick<ProcessFacts, "executable" | "cwd">, roots: readonly string[]): boolean {
  return [facts.executable, facts.cwd].some((path) => path !== undefined && roots.some((root) => isInside(path, root)));
}

/** Where a process runs, for a refusal: its working directory, else its executable. */
export function whereItRuns(facts: Pick<ProcessFacts, "executable" | "cwd">): string {
  return facts.cwd ?? facts.executable ?? "a place the bridge cannot read";
}

/**
 * Refuses (before attaching) unless the process listening on 127.0.0.1:port is the workspace's. A
 * debugpy server listens in an adapter process the program started (reparented to init at once), in
 * the program's working directory: that is what is checked before; the program's own, by the pid
 * debugpy names, is checked again once attached (debug-engine.ts).
 */
export async function checkListener(processes: ProcessTable | undefined, port: number, opts: { roots: readonly string[] }): Promise<void> {
  if (processes === undefined) {
    throw new AdapterRefusal(
      "not_supported",
      `The bridge cannot tell which program listens on 127.0.0.1:${port} on this system (it reads Linux's /proc)`,
      { suggestion: "Start the program with startDebugging instead of attaching to it." },
    );
  }
  const pid = await processes.listenerOf(port);
  const listener = pid === undefined ? undefined : await processes.describe(pid);
  if (listener === undefined) {
    throw new AdapterRefusal(
      "command_refused",
      `No process the bridge can see listens on 127.0.0.1:${port}, so it cannot check that the program there is the workspace's`,
      { suggestion: "Start the program (as the bridge's user) with its debugger listening on that port, then attach again." },
    );
  }
  if (!inWorkspace(listener, opts.roots)) {
    throw new AdapterRefusal(
      "command_refused",
      `The program on 127.0.0.1:${port} (process ${listener.pid}) runs in ${whereItRuns(listener)}, outside the workspace`,
      { suggestion: "Attach reaches only the workspace's programs: start it from the workspace." },
    );
  }
}
