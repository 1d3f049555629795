// Reading back the plain-text answers of the tools prompts and resources list things with: findFiles
// (one escaped path a line; a note after an empty line when cut) and gitListBranches (one branch a
// line: an optional "* ", the name, the commit). Names cannot hold a space or a newline there (paths
// are escaped, git refuses both in a ref name), so a line is never misread as two.

/** The paths of a findFiles answer, and whether it said the list was cut. */
export function foundFiles(text: string): { files: string[]; truncated: boolean } {
  if (/^No file matches .*\.$/.test(text) && !text.includes("\n")) return { files: [], truncated: false };
  const end = text.indexOf("\n\n");
  const files = (end < 0 ? text : text.slice(0, end)).split("\n").filter((line) => line !== "");
  return { files, truncated: end >= 0 };
}

/** The branch names of a gitListBranches answer, local then remote-tracking. */
export function branchNames(text: string): string[] {
  return text.split("\n").flatMap((line) => {
    const name = /^(?:\* )?(\S+) [0-9a-f]{4,64}(?: |$)/.exec(line)?.[1];
    return name === undefined ? [] : [name];
  });
}
