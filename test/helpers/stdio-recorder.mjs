// Runs a stdio MCP server (argv after the log path) and appends every line its client writes to
// it to the log file, unchanged, before passing it on: the method sequence a real client (Claude
// Code) sends over stdio. Its stdout and stderr pass through; it exits with the server.
import { spawn } from "node:child_process";
import { appendFileSync } from "node:fs";

const [log, command, ...args] = process.argv.slice(2);
const child = spawn(command, args, { stdio: ["pipe", "inherit", "inherit"] });
let pending = "";
process.stdin.on("data", (chunk) => {
  pending += chunk.toString("utf8");
  let at = pending.indexOf("\n");
  while (at >= 0) {
    appendFileSync(log, `${pending.slice(0, at)}\n`);
    pending = pending.slice(at + 1);
    at = pending.indexOf("\n");
  }
  child.stdin.write(chunk);
});
process.stdin.on("end", () => child.stdin.end());
for (const signal of ["SIGTERM", "SIGINT"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
