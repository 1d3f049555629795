// Character classes: "[abc]", "[a-z]", "[!abc]" / "[^abc]". A "]" right after "[" (or "[!") is a
// member, so "[]a]" matches "]" or "a"; "-" first or last is a member; "\" escapes the next
// character, so "[\]]" matches "]". A negated class never matches "/", so it cannot cross a
// directory boundary the way "?" cannot.
import type { ToolError } from "../../errors.ts";
import { step, type GlobNode } from "./ast.ts";
import { globError, where } from "./glob-error.ts";
import type { GlobSource } from "./glob-source.ts";
import { complementRanges, type CodePointRange, normalizeRanges, SLASH } from "./ranges.ts";

interface ParsedClass {
  readonly node: GlobNode;
  /** The index of the closing "]". */
  readonly close: number;
}

/** Parses the class whose "[" is at index `open` of `src`. */
export function parseClass(src: GlobSource, open: number): ParsedClass {
  let i = open + 1;
  const negated = src.at(i) === "!" || src.at(i) === "^";
  if (negated) i++;
  const bodyStart = i;
  const members: CodePointRange[] = [];
  while (i === bodyStart || src.at(i) !== "]") {
    if (i >= src.length) throw unclosedClass(src, open, bodyStart);
    const lo = readMember(src, i, open);
    i = lo.next;
    let hi = lo;
    if (src.at(i) === "-" && i + 1 < src.length && src.at(i + 1) !== "]") {
      hi = readMember(src, i + 1, open);
      if (hi.codePoint < lo.codePoint) throw reversedRange(src, lo.index, [lo.codePoint, hi.codePoint]);
      i = hi.next;
    }
    members.push({ lo: lo.codePoint, hi: hi.codePoint });
  }
  const ranges = negated ? complementRanges([...members, { lo: SLASH, hi: SLASH }]) : normalizeRanges(members);
  return { node: step(ranges), close: i };
}

interface Member {
  readonly codePoint: number;
  /** Where the member starts (its "\" when escaped). */
  readonly index: number;
  /** The index just after it. */
  readonly next: number;
}

function readMember(src: GlobSource, index: number, open: number): Member {
  if (src.at(index) !== "\\") return { codePoint: src.codePointAt(index), index, next: index + 1 };
  // A "\" as the last character escapes nothing, and leaves the class without its "]".
  if (index + 1 >= src.length) throw unclosedClass(src, open, -1);
  return { codePoint: src.codePointAt(index + 1), index, next: index + 2 };
}

function unclosedClass(src: GlobSource, open: number, bodyStart: number): ToolError {
  if (src.at(bodyStart) === "]") {
    const written = bodyStart === open + 1 ? "[]" : `[${src.at(open + 1) ?? ""}]`;
    return globError(
      `Empty character class "${written}" ${where(src.pattern, src.column(open))}`,
      'Put the characters to match between the brackets, e.g. "[abc]" (a "]" right after "[" is a member: "[]a]" matches "]" or "a"), or escape the bracket as "\\[" to match it literally.',
    );
  }
  return globError(
    `Unclosed "[" ${where(src.pattern, src.column(open))}`,
    'Close the character class with "]", or escape it as "\\[" to match a literal bracket.',
  );
}

function reversedRange(src: GlobSource, index: number, [lo, hi]: [number, number]): ToolError {
  const [from, to] = [String.fromCodePoint(lo), String.fromCodePoint(hi)];
  return globError(
    `Reversed range "${from}-${to}" in a character class ${where(src.pattern, src.column(index))}`,
    `Write the range from low to high, "${to}-${from}", or put "-" first or last in the class to match a literal "-".`,
  );
}
