// A diff budget for history results: each section (a commit of `git log -L`, a file of `git show`)
// keeps its header and the first lines of its patch; the rest is counted and named, with how to
// see it, so five commits of a long function are not ten thousand characters the model skims.

export interface DiffBudget {
  /** Most patch lines kept per section. */
  maxLines: number;
  /** A line that starts a section. */
  sectionStart: RegExp;
  /** The note for a section cut by `left` lines; `header` is the section's first line. */
  more(header: string, left: number): string;
}

/** Where a section's patch begins: its first hunk (the file header lines above it are kept). */
const PATCH_START = /^@@ /;

/** The text with every section's patch cut to the budget, and how many lines were left out in all. */
export function cutPatches(text: string, budget: DiffBudget): { text: string; left: number } {
  const ends = text.endsWith("\n");
  const lines = (ends ? text.slice(0, -1) : text).split("\n");
  const out: string[] = [];
  let left = 0;
  let header = "";
  let inPatch = false;
  let kept = 0;
  let cut = 0;
  const close = (last: boolean) => {
    if (cut > 0) out.push(budget.more(header, cut), ...(last ? [] : [""]));
    left += cut;
    inPatch = false;
    kept = 0;
    cut = 0;
  };
  for (const line of lines) {
    // A bracketed line is a note of the bridge's own ("[output cut …]"): it ends the patch, kept.
    if (line.startsWith("[")) {
      close(false);
      out.push(line);
      continue;
    }
    if (budget.sectionStart.test(line)) {
      close(false);
      header = line;
      out.push(line);
      continue;
    }
    if (!inPatch && PATCH_START.test(line)) inPatch = true;
    // A patch's lines all start with a marker; an empty line separates sections and is not counted.
    if (!inPatch || (line === "" && cut === 0)) out.push(line);
    else if (line === "") continue;
    else if (kept < budget.maxLines) {
      out.push(line);
      kept++;
    } else cut++;
  }
  close(true);
  return { text: out.join("\n") + (ends ? "\n" : ""), left };
}
