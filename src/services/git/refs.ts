// Names and revisions from a model, checked before they reach git's argv. Everything here is also
// placed after --end-of-options (or given as `--opt=value`), so even a name that slipped through
// could not become an option; the checks make the refusal a clear message instead of git's.
import { ToolError } from "../../errors.ts";

const MAX_NAME = 255;
const MAX_REVISION = 512;
// ASCII controls, DEL, and what `git check-ref-format` refuses anywhere in a name.
const FORBIDDEN_IN_REF = /[\x00-\x20\x7f~^:?*[\\]/;
const CONTROL = /[\x00-\x1f\x7f]/;

/** A branch name git would accept (`git check-ref-format --branch`), refused otherwise. */
export function branchName(name: string, what = "branch"): string {
  const why = refFormatProblem(name);
  if (why !== undefined) throw invalid(what, name, why, `Use a name like "feature/login-fix": letters, digits, "-", "_", "." and "/".`);
  return name;
}

function refFormatProblem(name: string): string | undefined {
  if (name === "") return "it is empty";
  if (name.length > MAX_NAME) return `it is longer than ${MAX_NAME} characters`;
  if (name.startsWith("-")) return 'it starts with "-"';
  if (FORBIDDEN_IN_REF.test(name)) return "it contains a space, a control character or one of ~ ^ : ? * [ \\";
  if (name.includes("..")) return 'it contains ".."';
  if (name.includes("@{") || name === "@" || name === "HEAD") return `"${name.includes("@{") ? "@{" : name}" is reserved`;
  if (name.startsWith("/") || name.endsWith("/") || name.includes("//")) return "it has an empty path component";
  if (name.endsWith(".")) return 'it ends with "."';
  for (const part of name.split("/")) {
    if (part.startsWith(".")) return 'a component starts with "."';
    if (part.endsWith(".lock")) return 'a component ends with ".lock"';
  }
  return undefined;
}

/** A remote's name (never a URL: fetching from an arbitrary URL is not a named remote). */
export function remoteName(name: string): string {
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/.test(name) || name.includes("..")) {
    throw invalid(
      "remote",
      name,
      "remote names are letters, digits, '.', '_' and '-'",
      'Pass a configured remote such as "origin" (see gitListBranches with includeRemote).',
    );
  }
  return name;
}

/**
 * One revision: a ref, a hash, HEAD~2, v1.0^{commit}, main@{yesterday}. Wider than a ref name, so
 * it is passed after --end-of-options; here only what could never be a revision is refused.
 */
export function revision(rev: string, what = "ref"): string {
  const why = revisionProblem(rev);
  if (why !== undefined) throw invalid(what, rev, why, 'Pass a branch, tag or commit hash, e.g. "main", "v1.2.0", "HEAD~3" or "a1b2c3d".');
  return rev;
}

function revisionProblem(rev: string): string | undefined {
  if (rev === "") return "it is empty";
  if (rev.length > MAX_REVISION) return `it is longer than ${MAX_REVISION} characters`;
  if (rev.startsWith("-")) return 'it starts with "-"';
  if (CONTROL.test(rev)) return "it contains a control character (newline, NUL, tab…)";
  if (rev.includes("..")) return 'it contains ".." (a range, where one revision is expected)';
  return undefined;
}

/** "a..b", "a...b", "a.." or a single revision; each side checked as a revision. */
export function revisionRange(range: string): string {
  const match = /^(.*?)(\.\.\.?)(.*)$/.exec(range);
  if (match === null) return revision(range, "range");
  const [, from = "", dots, to = ""] = match;
  if (from === "" && to === "")
    throw invalid("range", range, "both sides are empty", 'Use "main..HEAD" (commits on HEAD not on main) or "main...HEAD".');
  if (from !== "") revision(from, "range start");
  if (to !== "") revision(to, "range end");
  return `${from}${dots}${to}`;
}

function invalid(what: string, value: string, why: string, suggestion: string): ToolError {
  const shown = value.length > 80 ? `${value.slice(0, 80)}…` : value;
  return new ToolError("invalid_ref", `Invalid ${what} ${JSON.stringify(shown)}: ${why}`, { suggestion });
}
