// ctx.exec on the real Node runtime: declared executables only, no shell, a workspace cwd, the
// bridge's secrets kept out of the child's environment, output capped, and the whole process tree
// killed on timeout or cancellation.
import { mkdir, mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createNodeRuntime } from "../../runtime/node.ts";
import { makeToolContext } from "../helpers/tool-context.ts";
import { running as processRunning } from "../helpers/process-running.ts";

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
  return { ...runtime, env: { ...runtime.env, CLAUDE_IDE_BRIDGE_TOKEN: "do-not-leak-0123456789", VISIBLE: "yes" } };
};

describe("ctx.exec", () => {
  it("runs a declared executable with arguments as given, in a workspace directory", async () => {
    const ctx = await makeToolContext(root, { executables: ["sh"] });
    const result = await ctx.exec.run("sh", { args: ["-c", 'printf "%s|" "$1" "$PWD"; echo err >&2', "sh", "a b; $(rm -rf /)"], cwd: "sub" });
    expect(result).toMatchObject({ exitCode: 0, stdout: `a b; $(rm -rf /)|${join(root, "sub")}|`, stderr: "err\n", stdoutTruncated: false, timedOut: false });
  });

  it("refuses an executable the tool did not declare, and a cwd outside the workspace", async () => {
    const ctx = await makeToolContext(root, { executables: ["git"] });
    await expect(ctx.exec.run("sh", { args: [] })).rejects.toMatchObject({ code: "internal_error", message: expect.stringMatching(/may not run `sh`/) });
    const sh = await makeToolContext(root, { executables: ["sh"] });
    await expect(sh.exec.run("sh", { args: ["-c", "true"], cwd: ".." })).rejects.toMatchObject({ code: "outside_workspace" });
    const missing = await makeToolContext(root, { executables: ["no-such-tool-xyz"] });
    await expect(missing.exec.run("no-such-tool-xyz", { args: [] })).rejects.toMatchObject({ code: "probe_missing" });
  });

  it("keeps the bridge's token out of the child's environment", async () => {
    const ctx = await makeToolContext(root, { executables: ["sh"], runtime: withSecret() });
    const result = await ctx.exec.run("sh", { args: ["-c", 'echo "${CLAUDE_IDE_BRIDGE_TOKEN:-none} $VISIBLE $EXTRA"'], env: { EXTRA: "added" } });
    expect(result.stdout).toBe("none yes added\n");
  });

  it("caps each stream, marking what was cut, and streams output as it comes", async () => {
    const ctx = await makeToolContext(root, { executables: ["sh"] });
    const chunks: string[] = [];
    const result = await ctx.exec.run("sh", { args: ["-c", "head -c 100000 /dev/zero | tr '\\0' x"], maxOutputBytes: 1000, onOutput: (_stream, text) => chunks.push(text) });
    expect(result.stdout).toBe("x".repeat(1000));
    expect(result.stdoutTruncated).toBe(true);
    expect(chunks.join("").length).toBe(100_000);
  });

  it("kills the whole process tree on timeout and on cancellation", async () => {
    const ctx = await makeToolContext(root, { executables: ["sh"] });
    const timed = await ctx.exec.run("sh", { args: ["-c", "sleep 30 & echo $!; wait"], timeoutMs: 500 });
    expect(timed.timedOut).toBe(true);
    const grandchild = Number(timed.stdout.trim());
    await expect.poll(() => processRunning(grandchild)).toBe(false);

    const cancelled = await makeToolContext(root, { executables: ["sh"] });
    let pid = 0;
    const run = cancelled.exec.run("sh", {
      args: ["-c", "sleep 30 & echo $!; wait"],
      onOutput: (_stream, text) => {
        pid = Number(text.trim());
        cancelled.abort.abort();
      },
    });
    const result = await run;
    expect(result.exitCode).toBe(143);
    await expect.poll(() => processRunning(pid)).toBe(false);
  });
});
