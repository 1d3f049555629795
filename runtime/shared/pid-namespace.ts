// A command's tree in a PID namespace of its own, where Linux lets this user make one. The command
// is the namespace's first process, and when it exits the kernel kills every other process in the
// namespace: nothing the command started can outlive it, however it detached (setsid, a double
// fork, nohup) and whatever it did to its environment (`env -i` clears the marker the scan of
// runtime/shared/process-groups.ts looks for). That scan stays, for where no namespace can be made
// (macOS, Windows, a kernel or policy that refuses unprivileged user namespaces, util-linux older
// than 2.38): there `env -i` plus a detach still escapes.
//
// util-linux's unshare makes it: --fork so the command is the namespace's pid 1, --kill-child so
// killing unshare (a SIGKILL to the group) kills the namespace too. A user other than root needs a
// user namespace for it, mapping only its own uid and gid (--map-current-user), so files keep their
// owners and the command keeps the user's rights. The namespace's pid 1 is a small sh (INIT) that
// runs the command as its child and passes SIGTERM and SIGINT on: a pid 1 gets no signal it has no
// handler for, so the command itself as pid 1 would ignore the SIGTERM of a timeout or a cancel. It
// exits with the command's status (128 + n after signal n, the number the runtimes report), and
// its exit ends the namespace.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

/** Absolute paths only: the workspace's PATH must not choose the program that wraps every command. */
const UNSHARE = ["/usr/bin/unshare", "/bin/unshare"];

let prefix: readonly string[] | null | undefined;

/**
 * The namespace's pid 1: runs "$@" with our stdin,
 * passes TERM and INT on, and waits until the command is gone, not just until a trapped signal
 * interrupted the wait.
 */
const INIT = [
  "trap 'kill -TERM \"$c\" 2>/dev/null' TERM",
  "trap 'kill -INT \"$c\" 2>/dev/null' INT",
  // An asynchronous command's stdin is /dev/null before its own redirections: hand it ours through fd 3.
  "exec 3<&0",
  '"$@" 0<&3 3<&- &',
  "exec 3<&-",
  "c=$!",
  'while :; do wait "$c"; s=$?; kill -0 "$c" 2>/dev/null || break; done',
  'exit "$s"',
].join("\n");

/** `unshare ... -- sh -c INIT sh`, proven to work here, or undefined where no namespace can be made. */
export function pidNamespacePrefix(): readonly string[] | undefined {
  prefix ??= probe();
  return prefix ?? undefined;
}

function probe(): readonly string[] | null {
  if (process.platform !== "linux") return null;
  const unshare = UNSHARE.find((path) => existsSync(path));
  if (unshare === undefined || !existsSync("/bin/sh")) return null;
  const flags = ["--pid", "--fork", "--kill-child"];
  const args = process.getuid?.() === 0 ? flags : ["--user", "--map-current-user", ...flags];
  // Runs unshare inside the namespace it makes: exit 0 proves both.
  const probeRun = spawnSync(unshare, [...args, "--", unshare, "--version"], { stdio: "ignore", timeout: 10_000 });
  return probeRun.status === 0 ? [unshare, ...args, "--", "/bin/sh", "-c", INIT, "sh"] : null;
}

/**
 * The command and arguments to spawn: `cmd args` in a namespace of its own when `opts.wanted` and
 * possible. `namespaced` says which: a namespaced tree needs no marker in its environment (the
 * kernel ends it with its command, which no marker scan can better), so its end costs no scan.
 */
export function inOwnPidNamespace(
  cmd: string,
  args: readonly string[],
  opts: { wanted: boolean },
): { cmd: string; args: string[]; namespaced: boolean } {
  const wrap = opts.wanted ? pidNamespacePrefix() : undefined;
  if (wrap === undefined || wrap[0] === undefined) return { cmd, args: [...args], namespaced: false };
  return { cmd: wrap[0], args: [...wrap.slice(1), cmd, ...args], namespaced: true };
}
