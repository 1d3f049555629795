// `npm run typecheck`: the three type checks (everything with Node's types, the core with none,
// Bun's files with Bun's), at once. Each is one single-threaded tsc, so one after another they
// left a core idle for the 1.5 minutes they take on a 2-core machine. Each one's output is printed
// whole, under its name, once it ends; the script fails if any of them does.
import { spawn } from "node:child_process";
import { createRequire } from "node:module";

const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
const PROJECTS = ["tsconfig.json", "src/tsconfig.json", "tsconfig.bun.json"];

const results = await Promise.all(
  PROJECTS.map(
    (project) =>
      new Promise((resolve) => {
        const child = spawn(process.execPath, [tsc, "-p", project, "--noEmit"], { stdio: ["ignore", "pipe", "pipe"] });
        let output = "";
        child.stdout.on("data", (chunk) => {
          output += chunk;
        });
        child.stderr.on("data", (chunk) => {
          output += chunk;
        });
        child.on("error", (err) => resolve({ project, code: 1, output: `${err.message}\n` }));
        child.on("close", (code, signal) =>
          resolve({ project, code: code ?? 1, output: signal === null ? output : `${output}ended by ${signal}\n` }),
        );
      }),
  ),
);
for (const { project, code, output } of results) {
  if (code === 0 && output.trim() === "") continue;
  process.stdout.write(`tsc -p ${project}: exit ${code}\n${output}`);
}
const failed = results.filter((r) => r.code !== 0).map((r) => r.project);
if (failed.length > 0) {
  console.error(`typecheck failed: ${failed.join(", ")}`);
  process.exit(1);
}
