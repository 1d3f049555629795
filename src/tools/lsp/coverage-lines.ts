// How a verified whole-project answer (src/services/language/verified-references.ts) says what it
// covers: a PARTIAL line first when it is not complete, and after the list the files that mention
// the name outside the answer and any caveat about the server's setup.
import type { Coverage } from "../../services/language/verified-references.ts";

const MAX_LISTED = 12;

/** The first line when the answer is not complete, else "". */
export function partialLine(coverage: Coverage): string {
  return coverage.complete ? "" : `PARTIAL: ${coverage.why ?? "not every file that could use it was checked"}.\n`;
}

/** "complete" or "partial", for the header. */
export function status(coverage: Coverage): string {
  return coverage.complete ? "complete" : "partial";
}

/** The lines after the list: files mentioning the name outside the answer, and the caveat. */
export function coverageLines(coverage: Coverage, name: string): string[] {
  const out: string[] = [];
  const also = coverage.alsoMentioned;
  if (also.length > 0) {
    const shown = also.slice(0, MAX_LISTED).map((a) => `${a.file} (${a.lines})`);
    const more = also.length > shown.length ? `, and ${also.length - shown.length} more files` : "";
    out.push(
      `Also mentioned in (text that is not in this answer: comments, strings, docs, other symbols named \`${name}\`): ${shown.join(", ")}${more}`,
    );
  }
  if (coverage.caveat !== undefined) out.push(`Note: ${coverage.caveat}`);
  return out;
}
