// The replacing half of searchAndReplace: every match of a line, left to right and not overlapping
// (as ripgrep's `--replace` and Rust's replace_all), replaced by the replacement with its group
// references expanded: $1 or ${1}, $name or ${name}, $$ for a dollar sign. A group that did not
// take part, or does not exist, expands to nothing. Matches never span lines.
import type { Regex } from "../../lib/regex/index.ts";

interface Replaced {
  text: string;
  count: number;
}

/** `text` with every match of `regex` replaced, line by line ("\n" separated). */
export function replaceMatches(text: string, regex: Regex, opts: { replacement: string; literal: boolean }): Replaced {
  const { replacement, literal } = opts;
  let count = 0;
  const lines = text.split("\n").map((line) => {
    let out = "";
    let from = 0;
    let lastEnd = -1;
    for (let at = 0; at <= line.length; ) {
      const m = regex.exec(line, at);
      if (m === undefined) break;
      // An empty match right where the previous one ended is not another match.
      if (m.start === m.end && m.start === lastEnd) {
        at = m.start + stepAt(line, m.start);
        continue;
      }
      out += line.slice(from, m.start) + (literal ? replacement : expand(replacement, m.groups, regex.names));
      from = m.end;
      lastEnd = m.end;
      count++;
      at = m.end > m.start ? m.end : m.end + stepAt(line, m.end);
    }
    return out + line.slice(from);
  });
  return { text: lines.join("\n"), count };
}

/** 2 at a surrogate pair, so an empty match never splits a character. */
function stepAt(line: string, at: number): number {
  const code = line.charCodeAt(at);
  return code >= 0xd800 && code <= 0xdbff ? 2 : 1;
}

function expand(replacement: string, groups: readonly (string | undefined)[], names: ReadonlyMap<string, number>): string {
  return replacement.replace(/\$(\$|\{([^}]*)\}|[A-Za-z0-9_]+)/g, (_whole, ref: string, braced: string | undefined) => {
    if (ref === "$") return "$";
    const name = braced ?? ref;
    const index = /^\d+$/.test(name) ? Number(name) : names.get(name);
    return index === undefined ? "" : (groups[index] ?? "");
  });
}
