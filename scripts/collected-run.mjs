// One child process whose output is kept whole rather than streamed, for the scripts that run
// several checks at once and print each one's output under its name when it ends.
import { spawn } from "node:child_process";

/**
 * Runs `command` with `args`; resolves with `name`, the exit code (1 when it could not start or was
 * killed) and stdout and stderr together. `started` gets the child (to lower its priority, say).
 */
export function collectedRun(name, command, args, opts = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: opts.cwd,
      env: opts.env ?? process.env,
      stdio: ["ignore", "pipe", "pipe"],
      shell: opts.shell ?? false,
    });
    opts.started?.(child);
    let output = "";
    child.stdout.on("data", (chunk) => {
      output += chunk;
    });
    child.stderr.on("data", (chunk) => {
      output += chunk;
    });
    child.on("error", (err) => resolve({ name, code: 1, output: `${err.message}\n` }));
    child.on("close", (code, signal) =>
      resolve({ name, code: code ?? 1, output: signal === null ? output : `${output}ended by ${signal}\n` }),
    );
  });
}
