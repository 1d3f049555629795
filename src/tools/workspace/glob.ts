// Glob patterns to RegExp for findFiles: *, **, ?, [abc] / [!abc], {a,b} (nestable), and "\"
// to escape. A pattern without "/" matches the basename at any depth, like `rg -g`.
import { ToolError } from "../../errors.ts";

export interface GlobMatcher {
  /** Whether the pattern is matched against the basename rather than the relative path. */
  readonly basenameOnly: boolean;
  matches(relativePath: string): boolean;
}

export function compileGlob(pattern: string): GlobMatcher {
  const trimmed = pattern.replace(/^\.\//, "").replace(/^\/+/, "");
  if (trimmed === "") throw new ToolError("invalid_arguments", "The glob pattern is empty", { suggestion: "Pass a pattern such as \"*.ts\"." });
  const basenameOnly = !trimmed.includes("/");
  let regex: RegExp;
  try {
    regex = new RegExp(`^${translate(trimmed)}$`);
  } catch {
    // e.g. a reversed range such as [z-a]
    throw new ToolError("invalid_arguments", `Invalid glob pattern ${pattern}`, { suggestion: "Check the character classes ([a-z], not [z-a])." });
  }
  return {
    basenameOnly,
    matches(relativePath: string): boolean {
      const subject = basenameOnly ? relativePath.slice(relativePath.lastIndexOf("/") + 1) : relativePath;
      return regex.test(subject);
    },
  };
}

function translate(glob: string): string {
  let out = "";
  let braceDepth = 0;
  for (let i = 0; i < glob.length; i++) {
    const ch = glob.charAt(i);
    if (ch === "\\" && i + 1 < glob.length) {
      out += escapeRegex(glob.charAt(++i));
    } else if (ch === "*") {
      if (glob[i + 1] === "*") {
        const atSegmentStart = i === 0 || glob[i - 1] === "/";
        i++;
        // "**/" spans zero or more whole directories; a trailing or bare "**" spans anything.
        if (atSegmentStart && glob[i + 1] === "/") {
          out += "(?:[^/]*/)*";
          i++;
        } else {
          out += ".*";
        }
      } else {
        out += "[^/]*";
      }
    } else if (ch === "?") {
      out += "[^/]";
    } else if (ch === "[") {
      const close = glob.indexOf("]", i + 2);
      if (close < 0) {
        out += "\\[";
        continue;
      }
      let body = glob.slice(i + 1, close);
      const negate = body.startsWith("!") || body.startsWith("^");
      if (negate) body = body.slice(1);
      out += `[${negate ? "^/" : ""}${body.replace(/[\\\]^]/g, "\\$&")}]`;
      i = close;
    } else if (ch === "{") {
      braceDepth++;
      out += "(?:";
    } else if (ch === "}" && braceDepth > 0) {
      braceDepth--;
      out += ")";
    } else if (ch === "," && braceDepth > 0) {
      out += "|";
    } else {
      out += escapeRegex(ch);
    }
  }
  if (braceDepth > 0) throw new ToolError("invalid_arguments", `Unclosed "{" in glob pattern ${glob}`, { suggestion: "Close the group with \"}\"." });
  return out;
}

function escapeRegex(ch: string): string {
  return /[.*+?^${}()|[\]\\/]/.test(ch) ? `\\${ch}` : ch;
}
