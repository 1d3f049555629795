// Programs a debugger test starts itself (to attach to them): started in a directory, ready once
// they printed a pattern, and every one kept in a list for the test to end; and a free loopback
// port for a program's debugger to listen on.
import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:net";

/** Starts a program and resolves once it printed `pattern` on stdout or stderr, with what matched. */
export function startedProgram(
  cmd: string,
  args: string[],
  opts: { cwd: string; pattern: RegExp; track: ChildProcess[]; detached?: boolean },
): Promise<{ child: ChildProcess; match: RegExpExecArray }> {
  const child = spawn(cmd, args, { cwd: opts.cwd, stdio: ["ignore", "pipe", "pipe"], detached: opts.detached === true });
  opts.track.push(child);
  return new Promise((resolve, reject) => {
    let seen = "";
    child.once("exit", (code) => reject(new Error(`${cmd} exited (${code}) before it was ready: ${seen}`)));
    const onData = (chunk: Buffer) => {
      seen += chunk.toString();
      const match = opts.pattern.exec(seen);
      if (match !== null) resolve({ child, match });
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
  });
}

export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address !== null ? address.port : 0));
    });
  });
}
