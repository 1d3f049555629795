// The Node runtime's spawn (runtime/node.ts) on real processes: no shell, stdin, cwd and env, exit
// codes, kills and process groups. Split from test/unit/runtime/node-runtime.test.ts (serve and the
// host facts, in-process).
import { describe, expect, it } from "vitest";
import { createNodeRuntime } from "../../../runtime/node.ts";
import { running } from "../../helpers/process-running.ts";

const isLinux = process.platform === "linux";

async function text(stream: ReadableStream<Uint8Array>): Promise<string> {
  return new Response(stream).text();
}

describe("spawn", () => {
  const runtime = createNodeRuntime();

  it("runs a command without a shell and streams its output", async () => {
    const child = runtime.spawn("echo", ["hello", "$HOME;", "*"], { cwd: "/" });
    expect(child.pid).toBeGreaterThan(0);
    expect(await text(child.stdout)).toBe("hello $HOME; *\n");
    expect(await child.exited).toBe(0);
  });

  it("writes stdin then closes it, and reports the exit code", async () => {
    const child = runtime.spawn("sh", ["-c", "cat; echo err >&2; exit 3"], { cwd: "/", stdin: "from stdin" });
    const [out, err, code] = await Promise.all([text(child.stdout), text(child.stderr), child.exited]);
    expect(out).toBe("from stdin");
    expect(err).toBe("err\n");
    expect(code).toBe(3);
  });

  it("passes cwd and env", async () => {
    const child = runtime.spawn("sh", ["-c", 'pwd; echo "$FOO"'], { cwd: "/tmp", env: { FOO: "bar", PATH: process.env.PATH ?? "" } });
    expect(await text(child.stdout)).toMatch(/tmp\nbar\n$/);
  });

  it("marks a processGroup child's environment for the escape scan, unless it is groupOnly", async () => {
    const env = { PATH: process.env.PATH ?? "" };
    const marked = runtime.spawn("sh", ["-c", 'echo "[$CLAUDE_IDE_BRIDGE_TREE]"'], { cwd: "/", env, processGroup: true });
    expect(await text(marked.stdout)).toMatch(/^\[\d+\.[0-9a-f]{8}-\d+\]\n$/);
    const plain = runtime.spawn("sh", ["-c", 'echo "[$CLAUDE_IDE_BRIDGE_TREE]"'], { cwd: "/", env, processGroup: true, groupOnly: true });
    expect(await text(plain.stdout)).toBe("[]\n");
    // Its group is still its own, and still ended by a group kill.
    const child = runtime.spawn("sh", ["-c", "sleep 30 & echo $!; wait"], { cwd: "/", env, processGroup: true, groupOnly: true });
    const reader = child.stdout.getReader();
    const sleeper = Number(new TextDecoder().decode((await reader.read()).value).trim());
    child.kill("SIGKILL", { group: true });
    await child.exited;
    await expect.poll(() => running(sleeper), { timeout: 10_000 }).toBe(false);
  });

  it("kills the child when the signal aborts (exit 128 + SIGTERM)", async () => {
    const controller = new AbortController();
    const child = runtime.spawn("sh", ["-c", "echo started; exec sleep 10"], { cwd: "/", signal: controller.signal });
    // Aborted once it runs, whatever the machine's speed.
    await child.stdout.getReader().read();
    controller.abort();
    expect(await child.exited).toBe(143);
  });

  it("kill() works too", async () => {
    const child = runtime.spawn("sleep", ["10"], { cwd: "/" });
    child.kill("SIGKILL");
    expect(await child.exited).toBe(137);
  });

  it("rejects exited for a missing command, a missing cwd and a cwd that is a file", async () => {
    const child = runtime.spawn("definitely-not-a-command-xyz", [], { cwd: "/" });
    await expect(child.exited).rejects.toMatchObject({
      name: "RuntimeError",
      code: "ENOENT",
      message: expect.stringContaining("no such command"),
    });
    const missingCwd = runtime.spawn("sh", [], { cwd: "/definitely/not/here" });
    await expect(missingCwd.exited).rejects.toMatchObject({
      code: "ENOENT",
      message: expect.stringContaining("/definitely/not/here does not exist"),
    });
    // Node throws this one from spawn() itself; the port reports it through exited like the rest.
    const fileCwd = runtime.spawn("sh", [], { cwd: "/etc/passwd" });
    await expect(fileCwd.exited).rejects.toMatchObject({ code: "ENOTDIR" });
  });

  it('talks over child.stdin with stdin: "pipe", and a write after exit fails with EPIPE', async () => {
    const child = runtime.spawn("sh", ["-c", 'read line; echo "got $line"'], { cwd: "/", stdin: "pipe" });
    const writer = child.stdin?.getWriter();
    await writer?.write(new TextEncoder().encode("hello\n"));
    expect(await text(child.stdout)).toBe("got hello\n");
    expect(await child.exited).toBe(0);
    await expect(writer?.write(new TextEncoder().encode("late\n"))).rejects.toMatchObject({ name: "RuntimeError", code: "EPIPE" });
    expect(runtime.spawn("true", [], { cwd: "/" }).stdin).toBeUndefined();
  });

  it.runIf(isLinux)("kills a processGroup child's whole tree with kill(signal, { group: true })", async () => {
    const child = runtime.spawn("sh", ["-c", "sleep 1000 & echo $!; wait"], { cwd: "/", processGroup: true });
    const job = Number(new TextDecoder().decode((await child.stdout.getReader().read()).value));
    expect(runtime.processAlive(job)).toBe(true);
    child.kill("SIGTERM", { group: true });
    expect(await child.exited).toBe(143);
    await expect.poll(() => running(job)).toBe(false);
    expect(() => runtime.spawn("true", [], { cwd: "/" }).kill("SIGTERM", { group: true })).toThrow(
      expect.objectContaining({ code: "EINVAL" }),
    );
  });
});
