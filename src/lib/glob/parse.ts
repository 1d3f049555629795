// Glob text to AST (ast.ts), in one pass with an explicit stack for braces, so no input can
// recurse deeply here. The syntax and its meaning are those of the regex translation findFiles
// used before (src/tools/workspace/glob.ts), except where the comments below say otherwise.
import { ANYTHING, DIRECTORIES, type GlobNode, literal, STAR, step } from "./ast.ts";
import type { ToolError } from "../../errors.ts";
import { globError, quoteGlob, where } from "./glob-error.ts";
import { GlobSource } from "./glob-source.ts";
import { parseClass } from "./parse-class.ts";
import { NON_SLASH } from "./ranges.ts";

/** Deeper nesting is no real pattern, and it bounds the compiler's recursion (nfa.ts). */
const MAX_BRACE_DEPTH = 100;

interface ParsedGlob {
  readonly nodes: readonly GlobNode[];
  /** A pattern without "/" matches the basename at any depth, like `rg -g`. */
  readonly basenameOnly: boolean;
}

interface OpenBrace {
  readonly index: number;
  /** Whether the "{" stands at the start of a path segment, and so does each of its branches. */
  readonly atSegmentStart: boolean;
  /** The sequence the alternation is appended to once its "}" is read. */
  readonly outer: GlobNode[];
  readonly branches: GlobNode[][];
}

export function parseGlob(pattern: string): ParsedGlob {
  const body = dropLeadingSlashes(pattern);
  if (body === "") {
    throw globError(
      pattern === "" ? "The glob pattern is empty" : `The ${quoteGlob(pattern)} is empty once its leading "./" and "/" are dropped`,
      'Give a pattern such as "*.ts", "src/**/*.json" or "**/README.md".',
    );
  }
  return { nodes: parseBody(new GlobSource(pattern, body)), basenameOnly: !body.includes("/") };
}

/** Paths are relative to the search folder, so one leading "./" and any leading "/" mean nothing. */
function dropLeadingSlashes(pattern: string): string {
  let start = pattern.startsWith("./") ? 2 : 0;
  while (pattern[start] === "/") start++;
  return pattern.slice(start);
}

function parseBody(src: GlobSource): GlobNode[] {
  const open: OpenBrace[] = [];
  let sequence: GlobNode[] = [];
  let atSegmentStart = true;
  for (let i = 0; i < src.length; i++) {
    const ch = src.at(i);
    let nextAtSegmentStart = false;
    if (ch === "\\") {
      if (i + 1 >= src.length) throw trailingBackslash(src, i);
      sequence.push(literal(src.codePointAt(++i)));
      nextAtSegmentStart = src.at(i) === "/";
    } else if (ch === "*") {
      if (src.at(i + 1) !== "*") {
        sequence.push(STAR);
      } else if (atSegmentStart && src.at(i + 2) === "/") {
        sequence.push(DIRECTORIES);
        i += 2;
        nextAtSegmentStart = true;
      } else {
        sequence.push(ANYTHING);
        i += 1;
      }
    } else if (ch === "?") {
      sequence.push(step(NON_SLASH));
    } else if (ch === "[") {
      const parsed = parseClass(src, i);
      sequence.push(parsed.node);
      i = parsed.close;
    } else if (ch === "{") {
      if (open.length >= MAX_BRACE_DEPTH) throw tooDeep(src, i);
      open.push({ index: i, atSegmentStart, outer: sequence, branches: [] });
      sequence = [];
      // Unlike the old translation, "{**/a,b}" at a segment start spans zero directories too,
      // as "**/a" alone does: each branch starts where the brace does.
      nextAtSegmentStart = atSegmentStart;
    } else if (ch === "," && open.length > 0) {
      const brace = open[open.length - 1] as OpenBrace;
      brace.branches.push(sequence);
      sequence = [];
      nextAtSegmentStart = brace.atSegmentStart;
    } else if (ch === "}") {
      // A "}" with no "{" is an error, not a literal: `rg -g` rejects it too (its glob library
      // has an "unopened alternates" error), it is nearly always
      // a typo ("*.ts,tsx}") that would otherwise silently match nothing, and "\}" still
      // matches a literal brace.
      const brace = open.pop();
      if (brace === undefined) throw unmatchedBrace(src, i);
      brace.branches.push(sequence);
      sequence = brace.outer;
      sequence.push({ kind: "alternation", branches: brace.branches });
    } else {
      // A "," outside braces is a literal, as in the old translation.
      sequence.push(literal(src.codePointAt(i)));
      nextAtSegmentStart = ch === "/";
    }
    atSegmentStart = nextAtSegmentStart;
  }
  const unclosed = open[open.length - 1];
  if (unclosed !== undefined) throw unclosedBrace(src, unclosed.index);
  return sequence;
}

function trailingBackslash(src: GlobSource, index: number): ToolError {
  return globError(
    `Lone "\\" ${where(src.pattern, src.column(index))}: it ends the pattern, so it has nothing to escape`,
    'Remove it, or write "\\\\" to match a literal backslash.',
  );
}

function unclosedBrace(src: GlobSource, index: number): ToolError {
  return globError(
    `Unclosed "{" ${where(src.pattern, src.column(index))}`,
    'Close the alternation with "}", e.g. "*.{ts,tsx}", or escape it as "\\{" to match a literal brace.',
  );
}

function unmatchedBrace(src: GlobSource, index: number): ToolError {
  return globError(
    `Unmatched "}" ${where(src.pattern, src.column(index))}: there is no "{" before it`,
    'Open the alternation with "{", e.g. "*.{ts,tsx}", or escape it as "\\}" to match a literal brace.',
  );
}

function tooDeep(src: GlobSource, index: number): ToolError {
  return globError(
    `The ${quoteGlob(src.pattern)} is too complex: braces nest more than ${MAX_BRACE_DEPTH} deep at column ${src.column(index)}`,
    'List the alternatives in one pair of braces, e.g. "{a,b,c}" rather than "{a,{b,{c}}}".',
  );
}
