// Regex text to AST, for the bridge's dialect: ripgrep's (Rust `regex` crate) minus what a
// linear-time engine of this size does not do. What is refused is refused whether or not rg is on
// PATH, so a search answers the same both ways; nothing is accepted that rg 13 would refuse
// (backreferences, lookaround, \< \Z \Q, "(?<name>", escapes of plain characters, a bare "{").
import type { Assertion, ParsedRegex, RegexNode } from "./ast.ts";
import { CharClass } from "./char-class.ts";
import { classEscape, escapedCodePoint, literalNode } from "./escapes.ts";
import { parseBracketClass } from "./parse-class.ts";
import { RegexSource, regexError } from "./regex-source.ts";

/** Deeper nesting is no real pattern; it bounds the parser's and the compiler's recursion. */
const MAX_DEPTH = 200;
/** Largest count in {n,m}: the compiler's size bound refuses big products anyway. */
const MAX_COUNT = 1000;

import type { Flags } from "./escapes.ts";

export function parseRegex(pattern: string, flags: Flags): ParsedRegex {
  const parser = new Parser(new RegexSource(pattern));
  const root = parser.alternation({ ...flags }, 0);
  if (!parser.src.done)
    throw regexError(parser.src, 'unopened group: a ")" with no "(" before it', {
      suggestion: 'Escape it as "\\)" to match a parenthesis.',
    });
  return { root, groups: parser.groups, names: parser.names };
}

class Parser {
  groups = 0;
  readonly names = new Map<string, number>();
  constructor(readonly src: RegexSource) {}

  alternation(flags: Flags, depth: number): RegexNode {
    if (depth > MAX_DEPTH) throw regexError(this.src, `groups nest more than ${MAX_DEPTH} deep`, { suggestion: "Simplify the pattern." });
    const branches = [this.concat(flags, depth)];
    while (this.src.peek() === "|") {
      this.src.next();
      branches.push(this.concat(flags, depth));
    }
    return branches.length === 1 ? (branches[0] as RegexNode) : { kind: "alternation", branches };
  }

  private concat(flags: Flags, depth: number): RegexNode {
    const items: RegexNode[] = [];
    for (;;) {
      const ch = this.src.peek();
      if (ch === undefined || ch === "|" || ch === ")") break;
      if (ch === "*" || ch === "+" || ch === "?" || ch === "{") {
        const last = items.pop();
        if (last === undefined)
          throw regexError(this.src, `"${ch}" repeats nothing`, { suggestion: `Put it after what it repeats, or escape it as "\\${ch}".` });
        items.push(this.quantifier(last, flags));
        continue;
      }
      const atom = this.atom(flags, depth);
      if (atom !== undefined) items.push(atom);
    }
    if (items.length === 0) return { kind: "empty" };
    return items.length === 1 ? (items[0] as RegexNode) : { kind: "concat", items };
  }

  private quantifier(body: RegexNode, flags: Flags): RegexNode {
    const ch = this.src.next() as string;
    let min = 0;
    let max = Infinity;
    if (ch === "+") min = 1;
    else if (ch === "?") max = 1;
    else if (ch === "{") [min, max] = this.counts();
    let greedy = true;
    if (this.src.peek() === "?") {
      this.src.next();
      greedy = false;
    }
    return { kind: "repeat", body, min, max, greedy: greedy !== flags.swapGreed };
  }

  /** "{n}", "{n,}" or "{n,m}", the "{" already read. */
  private counts(): [number, number] {
    const bad = () =>
      regexError(this.src, 'a "{" must start a counted repetition such as {2}, {2,} or {2,5}', {
        suggestion: 'Write the count, or escape a literal brace as "\\{".',
      });
    const min = this.number() ?? Number.NaN;
    if (Number.isNaN(min)) throw bad();
    let max = min;
    if (this.src.peek() === ",") {
      this.src.next();
      max = this.src.peek() === "}" ? Infinity : (this.number() ?? Number.NaN);
    }
    if (this.src.next() !== "}" || Number.isNaN(max)) throw bad();
    if (max < min)
      throw regexError(this.src, `the counted repetition {${min},${max}} has its maximum below its minimum`, {
        suggestion: "Swap the numbers.",
      });
    if (min > MAX_COUNT || (max !== Infinity && max > MAX_COUNT))
      throw regexError(this.src, `counts above ${MAX_COUNT} are not supported`, {
        suggestion: "Use a smaller count, or + / * for an unbounded one.",
      });
    return [min, max];
  }

  private number(): number | undefined {
    let digits = "";
    while (/[0-9]/.test(this.src.peek() ?? "")) digits += this.src.next();
    return digits === "" ? undefined : Number(digits);
  }

  /** One atom; undefined for a flag group such as "(?i)", which only changes `flags`. */
  private atom(flags: Flags, depth: number): RegexNode | undefined {
    const ch = this.src.next() as string;
    switch (ch) {
      case "(":
        return this.group(flags, depth);
      case "[":
        return { kind: "class", cls: parseBracketClass(this.src, flags.caseInsensitive) };
      case ".":
        return { kind: "class", cls: new CharClass({ ranges: [{ lo: 0x0a, hi: 0x0a }], properties: [], negated: true }) };
      case "^":
        return { kind: "assert", what: "start" };
      case "$":
        return { kind: "assert", what: "end" };
      case "\\":
        return this.escape(flags);
      default:
        return literalNode(ch.codePointAt(0) ?? 0, flags);
    }
  }

  private group(flags: Flags, depth: number): RegexNode | undefined {
    let index: number | undefined;
    const inner = { ...flags };
    if (this.src.peek() === "?") {
      this.src.next();
      const kind = this.src.peek();
      if (kind === "=" || kind === "!" || (kind === "<" && (this.src.peek(1) === "=" || this.src.peek(1) === "!"))) {
        throw regexError(this.src, "lookaround is not supported", {
          suggestion: "ripgrep's regex has no lookaround either: match the context too, or search twice.",
        });
      }
      if (kind === "P" && this.src.peek(1) === "<") {
        this.src.next();
        this.src.next();
        index = this.namedGroup();
      } else if (kind === ":") {
        this.src.next();
      } else {
        const scoped = this.flagGroup(inner);
        if (!scoped) {
          // "(?i)": the flags hold for the rest of the enclosing group.
          Object.assign(flags, inner);
          return undefined;
        }
      }
    } else {
      index = ++this.groups;
    }
    const body = this.alternation(inner, depth + 1);
    if (this.src.next() !== ")")
      throw regexError(this.src, 'unclosed group: a "(" with no ")"', {
        suggestion: 'Close it, or escape it as "\\(" to match a parenthesis.',
      });
    return { kind: "group", body, index };
  }

  private namedGroup(): number {
    let name = "";
    while (this.src.peek() !== undefined && this.src.peek() !== ">") name += this.src.next();
    if (this.src.next() !== ">" || !/^[A-Za-z_][A-Za-z0-9_.[\]]*$/.test(name))
      throw regexError(this.src, 'a group name must be letters, digits and _ and end with ">"', { suggestion: "Write (?P<name>...)." });
    if (this.names.has(name))
      throw regexError(this.src, `the group name "${name}" is used twice`, { suggestion: "Give each group its own name." });
    const index = ++this.groups;
    this.names.set(name, index);
    return index;
  }

  /** Reads "(?flags)" or "(?flags:"; returns whether the flags are scoped to a group that follows. */
  private flagGroup(flags: Flags): boolean {
    let on = true;
    for (;;) {
      const ch = this.src.next();
      if (ch === ")") return false;
      if (ch === ":") return true;
      if (ch === "-" && on) on = false;
      else if (ch === "i") flags.caseInsensitive = on;
      else if (ch === "U") flags.swapGreed = on;
      else if (ch === "m" || ch === "s")
        continue; // Lines are matched one at a time: ^ $ and . mean the same with or without them.
      else if (ch === "x")
        throw regexError(this.src, "the x (verbose) flag is not supported", {
          suggestion: "Write the pattern without whitespace and comments.",
        });
      else
        throw regexError(this.src, `unknown flag group "(?${ch ?? ""}"`, {
          suggestion: "Use (?:...) for a group, (?P<name>...) for a named one, or the flags i, m, s, U.",
        });
    }
  }

  private escape(flags: Flags): RegexNode {
    const ch = this.src.next();
    if (ch === undefined)
      throw regexError(this.src, 'the pattern ends with a lone "\\"', { suggestion: 'Remove it, or write "\\\\" for a backslash.' });
    const assertion: Assertion | undefined =
      ch === "b" ? "wordBoundary" : ch === "B" ? "notWordBoundary" : ch === "A" ? "start" : ch === "z" ? "end" : undefined;
    if (assertion !== undefined) return { kind: "assert", what: assertion };
    const cls = classEscape(this.src, ch);
    if (cls !== undefined) return { kind: "class", cls: new CharClass(cls) };
    return literalNode(escapedCodePoint(this.src, ch), flags);
  }
}
