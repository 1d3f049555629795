// Progress for a running command: the latest output lines as the notification's message, so a
// client watching a long build or test run sees where it is. At most a few a second (a chatty
// command would otherwise flood the session), and always the newest lines.

interface OutputProgress {
  onOutput(stream: "stdout" | "stderr", text: string): void;
}

interface OutputProgressOptions {
  /** Lines shown (default 5). */
  lines?: number;
  /** Least time between two notifications, in ms (default 250). */
  intervalMs?: number;
}

const MAX_MESSAGE_CHARS = 500;
/**
 * What is kept of a line still being written: a command that floods output without a newline
 * (a progress bar, `yes | tr -d '\n'`) must cost neither memory nor time per chunk that grows with
 * its output.
 */
const MAX_PARTIAL_CHARS = MAX_MESSAGE_CHARS;

export function outputProgress(report: (count: number, message: string) => void, opts: OutputProgressOptions = {}): OutputProgress {
  const keep = opts.lines ?? 5;
  const interval = opts.intervalMs ?? 250;
  let lines: string[] = [];
  let partial = "";
  let sent = 0;
  let last = Number.NEGATIVE_INFINITY;
  return {
    onOutput(_stream, text) {
      const parts = (partial + text).split(/\r?\n|\r/);
      partial = (parts.pop() ?? "").slice(-MAX_PARTIAL_CHARS);
      const complete = parts
        .filter((l) => l.trim() !== "")
        .slice(-keep)
        .map((l) => l.slice(-MAX_MESSAGE_CHARS));
      lines = [...lines, ...complete].slice(-keep);
      const now = performance.now();
      if (now - last < interval) return;
      last = now;
      const shown = [...lines, ...(partial.trim() === "" ? [] : [partial])].slice(-keep).join("\n");
      if (shown === "") return;
      sent += 1;
      report(sent, shown.length > MAX_MESSAGE_CHARS ? shown.slice(-MAX_MESSAGE_CHARS) : shown);
    },
  };
}
