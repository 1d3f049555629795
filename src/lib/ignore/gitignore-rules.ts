// One .gitignore file as rules (gitignore(5)), matched with the linear-time glob of src/glob so no
// pattern in a checked-out repository can make a listing backtrack. The dialect is ripgrep's (its
// `ignore` crate), so the built-in walk and `rg` ignore the same files: "**" is special only as a
// whole path segment (elsewhere it is a plain "*"), and "{a,b}" is an alternation there as in our
// globs, where git would read the braces literally.
import { compileGlob, type GlobMatcher } from "../glob/index.ts";

export interface IgnoreRule {
  /** "!pattern": a match re-includes what an earlier rule ignored. */
  readonly negated: boolean;
  /** "pattern/": matches directories only. */
  readonly dirOnly: boolean;
  /** A "/" at the start or in the middle: matched against the path from the .gitignore's directory. */
  readonly anchored: boolean;
  readonly glob: GlobMatcher;
}

export type RuleMatch = "ignore" | "whitelist" | undefined;

/** Rules of one file, in order. Lines a glob cannot express are skipped, as git skips bad lines. */
export function parseGitignore(text: string): IgnoreRule[] {
  const rules: IgnoreRule[] = [];
  for (const raw of text.split("\n")) {
    const rule = parseLine(raw.endsWith("\r") ? raw.slice(0, -1) : raw);
    if (rule !== undefined) rules.push(rule);
  }
  return rules;
}

function parseLine(line: string): IgnoreRule | undefined {
  let body = trimTrailingSpaces(line);
  if (body === "" || body.startsWith("#")) return undefined;
  const negated = body.startsWith("!");
  if (negated) body = body.slice(1);
  const dirOnly = body.endsWith("/") && !body.endsWith("\\/");
  if (dirOnly) body = body.replace(/\/+$/, "");
  if (body === "") return undefined;
  const anchored = body.includes("/");
  body = body.replace(/^\/+/, "");
  if (body === "") return undefined;
  try {
    return { negated, dirOnly, anchored, glob: compileGlob(toGlob(body)) };
  } catch {
    return undefined;
  }
}

/** Trailing spaces are dropped unless escaped with a backslash ("a\ " keeps its space). */
function trimTrailingSpaces(line: string): string {
  let end = line.length;
  while (end > 0 && line[end - 1] === " " && line[end - 2] !== "\\") end--;
  return line.slice(0, end);
}

/** The gitignore pattern in src/glob syntax. */
function toGlob(pattern: string): string {
  let out = "";
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i] as string;
    if (ch === "\\") {
      out += pattern.slice(i, i + 2);
      i++;
    } else if (ch === "*") {
      let end = i;
      while (pattern[end] === "*") end++;
      const wholeSegment = (i === 0 || pattern[i - 1] === "/") && (end === pattern.length || pattern[end] === "/");
      out += end - i >= 2 && wholeSegment ? "**" : "*";
      i = end - 1;
    } else {
      out += ch;
    }
  }
  return out;
}

/**
 * What the rules of one file say about `path` (relative to that file's directory, "/"-separated):
 * the last matching rule decides, as in git.
 */
export function matchRules(rules: readonly IgnoreRule[], path: string, entry: { isDir: boolean }): RuleMatch {
  for (let i = rules.length - 1; i >= 0; i--) {
    const rule = rules[i] as IgnoreRule;
    if (rule.dirOnly && !entry.isDir) continue;
    if (!ruleMatches(rule, path)) continue;
    return rule.negated ? "whitelist" : "ignore";
  }
  return undefined;
}

function ruleMatches(rule: IgnoreRule, path: string): boolean {
  if (!rule.anchored || !rule.glob.basenameOnly) return rule.glob.matches(path);
  // "/name": anchored, yet without a "/" left once the leading one is dropped.
  return !path.includes("/") && rule.glob.matches(path);
}
