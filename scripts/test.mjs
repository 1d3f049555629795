// `npm test` after the build: the type checks and the linter beside the tests, not before them.
// The tests leave about a third of a 2-core machine idle (they wait on processes, servers and
// sockets), and the type checks (three tsc runs and deno check) and Biome need about 2 CPU-minutes:
// run first, they held the tests back by about a minute. Here they run at the lowest priority, so
// they take the idle time rather than the tests' (a test's timeout is sized for a loaded machine,
// not for a starved one).
// Their output is printed whole, after the tests' report, and any failure fails the run.
import { spawn } from "node:child_process";
import { setPriority } from "node:os";
import { collectedRun } from "./collected-run.mjs";

const LOWEST_PRIORITY = 19;
const npm = process.platform === "win32" ? "npm.cmd" : "npm";

/** Runs `npm run <script>` quietly at the lowest priority; resolves with its exit code and output. */
function background(script) {
  return collectedRun(script, npm, ["run", "-s", script], {
    shell: process.platform === "win32",
    started: (child) => {
      try {
        // The script's own children (tsc, biome) inherit the priority.
        setPriority(child.pid, LOWEST_PRIORITY);
      } catch {
        // Not allowed here (some containers): it still runs, at the default priority.
      }
    },
  });
}

function foreground(command, args) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: "inherit", shell: process.platform === "win32" });
    child.on("error", () => resolve(1));
    child.on("close", (code) => resolve(code ?? 1));
  });
}

const checks = Promise.all([background("typecheck"), background("lint")]);
const testsCode = await foreground(process.execPath, ["node_modules/vitest/vitest.mjs", "run", ...process.argv.slice(2)]);
let failed = testsCode !== 0;
for (const { name: script, code, output } of await checks) {
  if (code === 0) {
    process.stdout.write(`npm run ${script}: passed\n`);
    continue;
  }
  failed = true;
  process.stdout.write(`npm run ${script}: exit ${code}\n${output}`);
}
process.exit(failed ? 1 : 0);
