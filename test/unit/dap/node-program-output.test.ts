// The Node program's output as the debugger reads it: the inspector's URL from its listening line,
// the inspector's own lines kept out of the program's output, and a stop's wait until the bytes the
// program wrote before it have been read (bounded when they never come).
import { describe, expect, it } from "vitest";
import { ProgramOutput } from "../../../src/dap/node-inspector/program-output.ts";

function pipe(): { stream: ReadableStream<Uint8Array>; write(text: string): void; end(): void } {
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  const stream = new ReadableStream<Uint8Array>({ start: (c) => (controller = c) });
  const encoder = new TextEncoder();
  return { stream, write: (text) => controller?.enqueue(encoder.encode(text)), end: () => controller?.close() };
}

function setUp() {
  const stdout = pipe();
  const stderr = pipe();
  const output = new ProgramOutput({ stdout: stdout.stream, stderr: stderr.stream });
  const seen: string[] = [];
  output.forward((category, text) => seen.push(`${category}:${text}`));
  return { stdout, stderr, output, seen };
}

describe("ProgramOutput", () => {
  it("takes the inspector's URL from stderr and keeps its lines out of the program's output", async () => {
    const { stdout, stderr, output, seen } = setUp();
    stderr.write(
      "Debugger listening on ws://127.0.0.1:40123/0f3c2b1a-aaaa-bbbb-cccc-0123456789ab\nFor help, see: https://nodejs.org/en/docs/inspector\n",
    );
    expect(await output.url).toBe("ws://127.0.0.1:40123/0f3c2b1a-aaaa-bbbb-cccc-0123456789ab");
    stderr.write("Debugger attached.\nwarn: ");
    stderr.write("disk låg\nWaiting for the debugger to disconnect...\n");
    stdout.write("acc is 15\n");
    stdout.end();
    stderr.end();
    await output.done;
    // Two pipes: their order against each other is not the program's, each one's own order is.
    expect(seen.toSorted()).toEqual(["stderr:warn: disk låg\n", "stdout:acc is 15\n"]);
  });

  it("waits until the bytes written before a stop are read, and shows an unfinished line then", async () => {
    const { stdout, stderr, output, seen } = setUp();
    const waited = output.caughtUp({ stdout: 6, stderr: utf8("half ø") }, 30_000);
    stdout.write("abc");
    stdout.write("def");
    stderr.write("half ø");
    await waited;
    expect(seen).toEqual(["stdout:abc", "stdout:def", "stderr:half ø"]);
  });

  it("gives up waiting after its bound when the bytes never come", async () => {
    const { output } = setUp();
    const started = performance.now();
    await output.caughtUp({ stdout: 100, stderr: 0 }, 50);
    expect(performance.now() - started).toBeGreaterThanOrEqual(40);
  });
});

function utf8(text: string): number {
  return new TextEncoder().encode(text).byteLength;
}
