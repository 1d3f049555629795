// Line by line through output or a report of megabytes, giving the event loop a turn within the
// Yielder's budget: `text.split("\n")` on 16 MB makes 300,000 strings at once and holds the loop
// while it does, and so does the loop over them.
import { createYielder, type Yielder } from "../yield-now.ts";

/** Lines checked between looks at the yielder's clock. */
const LINES_PER_CHECK = 1024;

/** Calls `visit` with each line of `text`, without its "\n" or "\r\n". */
export async function forEachLine(text: string, visit: (line: string) => void, opts: { yielder?: Yielder } = {}): Promise<void> {
  const yielder = opts.yielder ?? createYielder();
  let count = 0;
  for (let at = 0; at < text.length; ) {
    const nl = text.indexOf("\n", at);
    const end = nl === -1 ? text.length : nl;
    visit(text.slice(at, end > at && text.charCodeAt(end - 1) === 0x0d ? end - 1 : end));
    at = end + 1;
    if (++count % LINES_PER_CHECK === 0) await yielder.maybeYield();
  }
}
