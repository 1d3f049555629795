// Claude Code's command hooks pass the event's JSON on stdin and close it. `notify` reads it here,
// bounded: nothing when stdin is a terminal, at most 1 MB, and at most two seconds of waiting, so a
// caller that leaves stdin open never holds the hook (and Claude Code) up.
const MAX_BYTES = 1024 * 1024;
const WAIT_MS = 2_000;

export function readHookInput(): Promise<string | undefined> {
  const stdin = process.stdin;
  if (stdin.isTTY) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (text: string | undefined) => {
      clearTimeout(timer);
      stdin.removeAllListeners("data").removeAllListeners("end").removeAllListeners("error");
      stdin.pause();
      stdin.unref?.();
      resolve(text);
    };
    const timer = setTimeout(() => finish(undefined), WAIT_MS);
    stdin.on("data", (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > MAX_BYTES) finish(undefined);
      else chunks.push(chunk);
    });
    stdin.on("end", () => finish(Buffer.concat(chunks).toString("utf8")));
    stdin.on("error", () => finish(undefined));
  });
}
