// ctx.exec on the real Node runtime: declared executables only, no shell, a workspace cwd, the
// bridge's secrets kept out of the child's environment, output capped, and the whole process tree
// killed on timeout or cancellation. (That its progress holds a bounded amount of output is a unit
// test: test/unit/capabilities/output-progress.test.ts.)
import { mkdir, mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createNodeRuntime } from "../../../runtime/node.ts";
import { pidNamespacePrefix } from "../../../runtime/shared/pid-namespace.ts";
import { outputProgress } from "../../../src/capabilities/exec/output-progress.ts";
import { makeToolContext } from "../../helpers/tool-context.ts";
import { running as processRunning } from "../../helpers/process-running.ts";

let base: string;
let root: string;

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), "cib-exec-")));
  root = join(base, "ws");
  await mkdir(join(root, "sub"), { recursive: true });
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

const withSecret = () => {
  const runtime = createNodeRuntime();
  return {
    ...runtime,
    env: { ...runtime.env, CLAUDE_IDE_BRIDGE_TOKEN: "do-not-leak-0123456789", GH_TOKEN: "gh-user-token", VISIBLE: "yes" },
  };
};

/**
 * `sh -c` code for a job that prints its pid, then becomes `sleep seconds`. The pid is read from
 * /proc/self/stat, not $!: where the command has a PID namespace of its own, $! is the namespace's
 * number, while /proc (the host's) gives the one this test can look for.
 */
function jobPrintingPid(seconds: number): string {
  return `sh -c 'read -r p r < /proc/self/stat; echo $p; exec sleep ${seconds}'`;
}

/**
 * A background job (`sleep 60`, its output redirected by `redirect`, else the command's) whose pid
 * the command prints before it exits: the job hands it over on fd 3 (a command substitution), so
 * the command cannot exit before the job is running.
 */
function detachedJob(redirect: string): string {
  const job = "sh -c 'read -r p r < /proc/self/stat; echo $p >&3; exec sleep 60 3>&- 4>&-'";
  return `exec 4>&1; p=$(${job} 3>&1 1>&4 ${redirect} &); echo $p`;
}

describe("ctx.exec", () => {
  it("runs a declared executable with arguments as given, in a workspace directory", async () => {
    const ctx = await makeToolContext(root, { executables: ["sh"] });
    const result = await ctx.exec.run("sh", {
      args: ["-c", 'printf "%s|" "$1" "$PWD"; echo err >&2', "sh", "a b; $(rm -rf /)"],
      cwd: "sub",
    });
    expect(result).toMatchObject({
      exitCode: 0,
      stdout: `a b; $(rm -rf /)|${join(root, "sub")}|`,
      stderr: "err\n",
      stdoutTruncated: false,
      timedOut: false,
    });
  });

  it("runs many commands at once under one call's signal without piling listeners on it", async () => {
    const ctx = await makeToolContext(root, { executables: ["sh"] });
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.name);
    process.on("warning", onWarning);
    try {
      const runs = await Promise.all(Array.from({ length: 16 }, (_, i) => ctx.exec.run("sh", { args: ["-c", `echo ${i}`] })));
      expect(runs.map((r) => r.stdout)).toEqual(Array.from({ length: 16 }, (_, i) => `${i}\n`));
      // Warnings are emitted on the next tick.
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off("warning", onWarning);
    }
    expect(warnings).not.toContain("MaxListenersExceededWarning");
  });

  it("refuses an executable the tool did not declare, and a cwd outside the workspace", async () => {
    const ctx = await makeToolContext(root, { executables: ["git"] });
    await expect(ctx.exec.run("sh", { args: [] })).rejects.toMatchObject({
      code: "internal_error",
      message: expect.stringMatching(/may not run `sh`/),
    });
    const sh = await makeToolContext(root, { executables: ["sh"] });
    await expect(sh.exec.run("sh", { args: ["-c", "true"], cwd: ".." })).rejects.toMatchObject({ code: "outside_workspace" });
    const missing = await makeToolContext(root, { executables: ["no-such-tool-xyz"] });
    await expect(missing.exec.run("no-such-tool-xyz", { args: [] })).rejects.toMatchObject({ code: "probe_missing" });
  });

  it("keeps the bridge's token out of the child's environment; a declared tool (gh) keeps the user's", async () => {
    const ctx = await makeToolContext(root, { executables: ["sh"], runtime: withSecret() });
    const result = await ctx.exec.run("sh", {
      args: ["-c", 'echo "${CLAUDE_IDE_BRIDGE_TOKEN:-none} $VISIBLE $EXTRA $GH_TOKEN"'],
      env: { EXTRA: "added" },
    });
    expect(result.stdout).toBe("none yes added gh-user-token\n");
  });

  it("caps each stream, marking what was cut, and streams output as it comes", async () => {
    const ctx = await makeToolContext(root, { executables: ["sh"] });
    const chunks: string[] = [];
    const result = await ctx.exec.run("sh", {
      args: ["-c", "head -c 100000 /dev/zero | tr '\\0' x"],
      maxOutputBytes: 1000,
      onOutput: (_stream, text) => chunks.push(text),
    });
    expect(result.stdout).toBe("x".repeat(1000));
    expect(result.stdoutTruncated).toBe(true);
    expect(chunks.join("").length).toBe(100_000);
  });

  it("kills the whole process tree on timeout and on cancellation", async () => {
    const ctx = await makeToolContext(root, { executables: ["sh"] });
    const timed = await ctx.exec.run("sh", { args: ["-c", `${jobPrintingPid(30)} & wait`], timeoutMs: 500 });
    expect(timed.timedOut).toBe(true);
    const grandchild = Number(timed.stdout.trim());
    await expect.poll(() => processRunning(grandchild)).toBe(false);

    const cancelled = await makeToolContext(root, { executables: ["sh"] });
    let pid = 0;
    const run = cancelled.exec.run("sh", {
      args: ["-c", `${jobPrintingPid(30)} & wait`],
      onOutput: (_stream, text) => {
        pid = Number(text.trim());
        cancelled.abort.abort();
      },
    });
    const result = await run;
    expect(result.exitCode).toBe(143);
    await expect.poll(() => processRunning(pid)).toBe(false);
  });

  it("follows SIGTERM with SIGKILL, so a tree that ignores SIGTERM cannot keep a timed-out call waiting", async () => {
    const ctx = await makeToolContext(root, { executables: ["sh"] });
    // The ignored SIGTERM is inherited by the sleep; only SIGKILL ends either.
    const result = await ctx.exec.run("sh", { args: ["-c", `trap '' TERM; ${jobPrintingPid(60)} & wait; wait`], timeoutMs: 1000 });
    expect(result.timedOut).toBe(true);
    const grandchild = Number(result.stdout.trim());
    expect(grandchild).toBeGreaterThan(0);
    await expect.poll(() => processRunning(grandchild)).toBe(false);
  });

  it("does not wait for a background job holding the output open after the command exited, and stops it", async () => {
    const ctx = await makeToolContext(root, { executables: ["sh"] });
    const result = await ctx.exec.run("sh", { args: ["-c", detachedJob("")] });
    // In a PID namespace the kernel ends the job as the command exits: nothing is left to stop.
    expect(result).toMatchObject({ exitCode: 0, timedOut: false, leftoversStopped: pidNamespacePrefix() === undefined });
    const job = Number(result.stdout.trim());
    await expect.poll(() => processRunning(job)).toBe(false);
  });

  it("stops a background job that closed its output too: nothing the command started outlives it", async () => {
    const ctx = await makeToolContext(root, { executables: ["sh"] });
    const result = await ctx.exec.run("sh", { args: ["-c", detachedJob(">/dev/null 2>&1")] });
    expect(result).toMatchObject({ exitCode: 0, leftoversStopped: false });
    const job = Number(result.stdout.trim());
    await expect.poll(() => processRunning(job)).toBe(false);
  });

  it("keeps the progress of a command that floods output without a newline small", async () => {
    const ctx = await makeToolContext(root, { executables: ["sh"] });
    const messages: string[] = [];
    const progress = outputProgress((_count, message) => messages.push(message), { intervalMs: 0 });
    const result = await ctx.exec.run("sh", {
      args: ["-c", "head -c 20000000 /dev/zero | tr '\\0' x"],
      maxOutputBytes: 10_000,
      keep: "head-and-tail",
      onOutput: progress.onOutput,
    });
    expect(result.stdoutTruncated).toBe(true);
    expect(result.stdout).toMatch(/bytes of output omitted/);
    expect(messages.length).toBeGreaterThan(0);
    expect(Math.max(...messages.map((m) => m.length))).toBeLessThanOrEqual(500);
  });
});
