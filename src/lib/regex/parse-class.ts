// Bracket classes of the bridge's regex dialect: "[abc]", "[^a-z]", "[\d_]", "[[:alpha:]]", with
// "]" first and "-" first or last taken literally, as ripgrep reads them. Nested classes and set
// operations ("[a-z&&[^aeiou]]") are refused rather than half supported.
import { complementRanges } from "../glob/ranges.ts";
import { CharClass, foldRanges, POSIX_CLASSES, type CharClassSpec, type CodePointRange } from "./char-class.ts";
import { classEscape, escapedCodePoint } from "./escapes.ts";
import { regexError, type RegexSource } from "./regex-source.ts";

/** The class whose "[" was just read. */
export function parseBracketClass(src: RegexSource, caseInsensitive: boolean): CharClass {
  const spec: CharClassSpec = { ranges: [], properties: [], negated: false };
  if (src.peek() === "^") {
    src.next();
    spec.negated = true;
  }
  let first = true;
  for (;;) {
    const ch = src.peek();
    if (ch === undefined)
      throw regexError(src, 'unclosed class: a "[" with no "]"', { suggestion: 'Close it, or escape it as "\\[" to match a bracket.' });
    if (ch === "]" && !first) {
      src.next();
      break;
    }
    first = false;
    if (ch === "[") {
      if (src.peek(1) !== ":")
        throw regexError(src, "nested classes are not supported", {
          suggestion: 'Escape the bracket ("\\["), or list the characters in one class.',
        });
      readPosix(src, spec);
      continue;
    }
    if ((ch === "&" && src.peek(1) === "&") || (ch === "~" && src.peek(1) === "~") || (ch === "-" && src.peek(1) === "-")) {
      throw regexError(src, `class set operations ("${ch}${ch}") are not supported`, {
        suggestion: "List the characters you want in one class.",
      });
    }
    const lo = readMember(src, spec);
    if (lo === undefined) {
      if (src.peek() === "-" && src.peek(1) !== "]")
        throw regexError(src, "a range must start with a single character, not a class such as \\w", {
          suggestion: 'Escape the "-" ("\\-") to match a dash.',
        });
      continue;
    }
    if (src.peek() === "-" && src.peek(1) !== "]" && src.peek(1) !== undefined) {
      src.next();
      const hi = readMember(src, spec);
      if (hi === undefined)
        throw regexError(src, "a range must end with a single character, not a class such as \\w", {
          suggestion: 'Escape the "-" ("\\-") to match a dash.',
        });
      if (hi < lo)
        throw regexError(src, `the range ends before it starts (U+${lo.toString(16)} > U+${hi.toString(16)})`, {
          suggestion: "Write the smaller character first.",
        });
      spec.ranges.push({ lo, hi });
    } else {
      spec.ranges.push({ lo, hi: lo });
    }
  }
  if (caseInsensitive) spec.ranges = foldRanges(spec.ranges);
  return new CharClass(spec);
}

/** One member: its code point, or undefined when it was a class escape (added to `spec` directly). */
function readMember(src: RegexSource, spec: CharClassSpec): number | undefined {
  const ch = src.next() as string;
  if (ch !== "\\") return ch.codePointAt(0) ?? 0;
  const escaped = src.next();
  if (escaped === undefined) throw regexError(src, "the pattern ends inside a class", { suggestion: "Close the class with ]." });
  if (escaped === "b" || escaped === "B" || escaped === "A" || escaped === "z")
    throw regexError(src, `"\\${escaped}" is an assertion and cannot stand in a class`, { suggestion: "Move it outside the brackets." });
  const cls = classEscape(src, escaped);
  if (cls === undefined) return escapedCodePoint(src, escaped);
  if (cls.negated) spec.properties.push(...cls.properties.map((p) => ({ test: p.test, negated: !p.negated })));
  else spec.properties.push(...cls.properties);
  return undefined;
}

function readPosix(src: RegexSource, spec: CharClassSpec): void {
  src.next();
  src.next();
  const negated = src.peek() === "^";
  if (negated) src.next();
  let name = "";
  while (src.peek() !== undefined && src.peek() !== ":") name += src.next();
  const ranges = POSIX_CLASSES[name];
  if (src.next() !== ":" || src.next() !== "]" || ranges === undefined) {
    throw regexError(src, `"[:${name}" is not a POSIX class`, {
      suggestion: `Use one of ${Object.keys(POSIX_CLASSES).join(", ")}, as [[:alpha:]].`,
    });
  }
  const members: CodePointRange[] = ranges.map(([lo, hi]) => ({ lo, hi }));
  spec.ranges.push(...(negated ? complementRanges(members) : members));
}
