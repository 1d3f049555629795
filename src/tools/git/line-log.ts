// `git log -L` prints the whole range (a function) at every commit, even when one line of it
// changed, and takes no -U: five commits of a 70-line function were 20 KB here, and a budget of
// lines per commit kept the first, unchanged lines of each and cut the change itself. So each
// commit keeps its changed lines with CONTEXT unchanged lines around them, and says how many
// unchanged lines it left out between; the file header lines go where they name the file asked
// about (they say it again at every commit), and stay where git followed the range to another name.

/** Unchanged lines kept around each change, as `git diff`'s -U would. */
const CONTEXT = 2;

/** The output of `git log -L… -- path` with each commit's patch cut to its changes. */
export function changedLinesOnly(text: string, opts: { path: string }): string {
  const ownDiff = `diff --git a/${opts.path} b/${opts.path}`;
  const ownHeaders = new Set([`--- a/${opts.path}`, `+++ b/${opts.path}`, "--- /dev/null"]);
  /** The current commit's diff is of the file asked about: its header lines say nothing new. */
  let own = false;
  const out: string[] = [];
  let hunk: string[] | undefined;
  const flush = () => {
    if (hunk !== undefined) out.push(...aroundChanges(hunk));
    hunk = undefined;
  };
  for (const line of text.split("\n")) {
    if (line.startsWith("@@ ")) {
      flush();
      out.push(line);
      hunk = [];
    } else if (hunk !== undefined && /^[ +\-\\]/.test(line)) {
      hunk.push(line);
    } else {
      flush();
      if (line.startsWith("diff --git ")) own = line === ownDiff;
      if (!(own && (line === ownDiff || ownHeaders.has(line)))) out.push(line);
    }
  }
  flush();
  return out.join("\n");
}

/** A hunk's lines: the changed ones with CONTEXT around them; each run left out is one counted line. */
function aroundChanges(lines: readonly string[]): string[] {
  const keep = new Array<boolean>(lines.length).fill(false);
  lines.forEach((line, i) => {
    if (line.startsWith(" ")) return;
    for (let j = Math.max(0, i - CONTEXT); j <= Math.min(lines.length - 1, i + CONTEXT); j++) keep[j] = true;
  });
  const out: string[] = [];
  let skipped = 0;
  lines.forEach((line, i) => {
    if (!keep[i]) {
      skipped += 1;
      return;
    }
    if (skipped > 0) out.push(` … ${skipped} unchanged line${skipped === 1 ? "" : "s"}`);
    skipped = 0;
    out.push(line);
  });
  if (skipped > 0) out.push(` … ${skipped} unchanged line${skipped === 1 ? "" : "s"}`);
  return out;
}
