// bridgeDoctor's checks stop when its call is cancelled: a Claude Code config entry whose command
// never answers would hold the stdio probe for its 30 s deadline; an abort ends the checks at once
// and the probe's child process is stopped, not left running.
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { doctorChecks } from "../../../src/cli/doctor.ts";
import { commandContext, makeCommandScratch, type CommandScratch } from "../../helpers/command-context.ts";

let scratch: CommandScratch;
let pidFile: string;

beforeAll(async () => {
  scratch = await makeCommandScratch();
  pidFile = join(scratch.dir, "hung.pid");
  // Named like the bridge's shim so doctor tries it as Claude Code would; it says its pid and never answers.
  const script = join(scratch.dir, "claude-ide-bridge-hung.mjs");
  await writeFile(
    script,
    `import { writeFileSync } from "node:fs";\nwriteFileSync(${JSON.stringify(pidFile)}, String(process.pid));\nsetInterval(() => {}, 1000);\n`,
  );
  const entry = { command: process.execPath, args: [script, "shim"] };
  await writeFile(join(scratch.configDir, ".claude.json"), JSON.stringify({ mcpServers: { "claude-ide-bridge": entry } }));
  await mkdir(join(scratch.project, "src"), { recursive: true });
});

afterAll(async () => {
  await rm(scratch.dir, { recursive: true, force: true });
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function until<T>(probe: () => Promise<T | undefined> | T | undefined, what: string, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

it("rejects with the abort's reason and stops the stdio probe's process", { timeout: 60_000 }, async () => {
  const ctx = commandContext(scratch, { cwd: scratch.project });
  // Only node on PATH: no git/rg/gh/editor CLI or language server adds its own wait to the run.
  const runtime = { ...ctx.runtime, env: { ...ctx.runtime.env, PATH: dirname(process.execPath) } };
  const controller = new AbortController();
  const started = Date.now();
  const run = doctorChecks(runtime, { cwd: scratch.project, self: ctx.self, runtimeVersion: "test", signal: controller.signal });
  const outcome = run.then(
    () => "finished",
    (err: unknown) => err,
  );
  const pid = await until(async () => Number(await readFile(pidFile, "utf8").catch(() => "")) || undefined, "the probe's process");
  expect(alive(pid)).toBe(true);
  const reason = new Error("the call was cancelled");
  controller.abort(reason);
  expect(await outcome).toBe(reason);
  // Well inside the probe's own 30 s deadline: the abort ended it.
  expect(Date.now() - started).toBeLessThan(25_000);
  await until(() => (alive(pid) ? undefined : true), "the probe's process to end");

  // An already-aborted call does no work.
  await expect(
    doctorChecks(runtime, { cwd: scratch.project, self: ctx.self, runtimeVersion: "test", signal: controller.signal }),
  ).rejects.toBe(reason);
});
