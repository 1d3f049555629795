// The bridge's regex: ripgrep's dialect (src/lib/regex/parse.ts) on a linear-time engine
// (src/lib/regex/pike-vm.ts), so a user's pattern can never freeze the bridge, and a search gives the
// same answer with rg and without it. A literal every match must contain is looked for first with
// indexOf, so most lines that cannot match are skipped without running the VM at all.
import { ToolError } from "../../errors.ts";
import type { ParsedRegex, RegexNode } from "./ast.ts";
import { compile, MAX_INSTRUCTIONS, programSize } from "./compile.ts";
import { literalNode } from "./escapes.ts";
import { parseRegex } from "./parse.ts";
import { PikeVm, type VmStats } from "./pike-vm.ts";

interface RegexOptions {
  caseInsensitive?: boolean;
  /** The pattern is plain text, not a regex. */
  literal?: boolean;
  /** Counts the VM's work (tests check the linear bound with it). */
  stats?: VmStats;
}

interface RegexMatch {
  start: number;
  end: number;
  /** Group texts by number (0 is the whole match); undefined for a group that did not take part. */
  groups: (string | undefined)[];
}

export interface Regex {
  readonly groupCount: number;
  readonly names: ReadonlyMap<string, number>;
  /** Whether the pattern matches anywhere in the line. */
  test(line: string): boolean;
  /** False when no line of `text` can match (it lacks a literal every match contains): a cheap test of a whole file first. */
  mayMatch(text: string): boolean;
  /** The leftmost-first match at or after `from` (UTF-16 offset). */
  exec(line: string, from?: number): RegexMatch | undefined;
}

export function compileRegex(pattern: string, opts: RegexOptions = {}): Regex {
  const flags = {
    caseInsensitive: opts.caseInsensitive === true,
    swapGreed: false,
  };
  const parsed: ParsedRegex = opts.literal
    ? { root: literalRoot(pattern, flags), groups: 0, names: new Map() }
    : parseRegex(pattern, flags);
  if (programSize(parsed.root) === Infinity) {
    throw new ToolError(
      "invalid_arguments",
      `The regex is too complex: its program would need more than ${MAX_INSTRUCTIONS} instructions (counted repetitions multiply)`,
      {
        suggestion: "Use smaller counts in {n,m}, or + and * instead of large counts.",
      },
    );
  }
  const program = compile(parsed.root, parsed.groups);
  const vm = new PikeVm(program, startsAnchored(parsed.root), opts.stats);
  const required = requiredLiteral(parsed.root);
  return {
    groupCount: parsed.groups,
    names: parsed.names,
    test: (line) => (required === undefined || line.includes(required)) && vm.test(line),
    mayMatch: (text) => required === undefined || text.includes(required),
    exec(line, from = 0) {
      if (required !== undefined && !line.includes(required, from)) return undefined;
      const slots = vm.exec(line, from);
      if (slots === undefined) return undefined;
      const groups: (string | undefined)[] = [];
      for (let g = 0; g <= parsed.groups; g++) {
        const s = slots[2 * g] as number;
        const e = slots[2 * g + 1] as number;
        groups.push(s >= 0 && e >= 0 ? line.slice(s, e) : undefined);
      }
      return { start: slots[0] as number, end: slots[1] as number, groups };
    },
  };
}

function literalRoot(text: string, flags: { caseInsensitive: boolean; swapGreed: boolean }): RegexNode {
  const items = Array.from(text, (ch) => literalNode(ch.codePointAt(0) ?? 0, flags));
  return items.length === 1 ? (items[0] as RegexNode) : { kind: "concat", items };
}

function startsAnchored(node: RegexNode): boolean {
  if (node.kind === "assert") return node.what === "start";
  if (node.kind === "concat") return node.items[0] !== undefined && startsAnchored(node.items[0]);
  if (node.kind === "group") return startsAnchored(node.body);
  return false;
}

/** The longest run of literal text every match contains, when there is one. */
function requiredLiteral(node: RegexNode): string | undefined {
  if (node.kind === "class") return node.literal;
  if (node.kind === "group") return requiredLiteral(node.body);
  if (node.kind === "repeat") return node.min >= 1 ? requiredLiteral(node.body) : undefined;
  if (node.kind !== "concat") return undefined;
  let best: string | undefined;
  let run = "";
  const consider = (candidate: string | undefined) => {
    if (candidate !== undefined && candidate.length > (best?.length ?? 0)) best = candidate;
  };
  for (const item of node.items) {
    if (item.kind === "class" && item.literal !== undefined) {
      run += item.literal;
      continue;
    }
    // Assertions take no text, so the literal run around them goes on.
    if (item.kind === "assert") continue;
    consider(run);
    run = "";
    consider(requiredLiteral(item));
  }
  consider(run);
  return best === "" ? undefined : best;
}
