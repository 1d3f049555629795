// Just enough of git's config file syntax (git-config(1), "CONFIGURATION FILE") for the jail to
// find where a repository takes code from: sections with or without a quoted subsection, names
// with or without a value, quoted values with escapes, line continuations and comments. Pure.

export interface ConfigLine {
  /** Lowercased. */
  section: string;
  /** As written ("" when none). */
  subsection: string;
  /** Lowercased. */
  name: string;
  value: string;
}

export function parseGitConfig(text: string): ConfigLine[] {
  const out: ConfigLine[] = [];
  let section = "";
  let subsection = "";
  const lines = text.replace(/\r\n/g, "\n").split("\n");
  for (let i = 0; i < lines.length; i++) {
    let line = (lines[i] ?? "").trimStart();
    if (line === "" || line.startsWith("#") || line.startsWith(";")) continue;
    if (line.startsWith("[")) {
      const header = /^\[\s*([A-Za-z0-9.-]+)\s*(?:"((?:[^"\\]|\\.)*)")?\s*\]/.exec(line);
      if (header === null) continue;
      const [name = "", ...old] = (header[1] ?? "").split(".");
      section = name.toLowerCase();
      subsection = header[2] !== undefined ? header[2].replace(/\\(.)/g, "$1") : old.join(".").toLowerCase();
      line = line.slice(header[0].length).trimStart();
      if (line === "" || line.startsWith("#") || line.startsWith(";")) continue;
    }
    const variable = /^([A-Za-z][A-Za-z0-9-]*)\s*(=?)/.exec(line);
    if (variable === null) continue;
    const name = (variable[1] ?? "").toLowerCase();
    if (variable[2] !== "=") {
      out.push({ section, subsection, name, value: "true" });
      continue;
    }
    let rest = line.slice(variable[0].length);
    // A backslash at the end of the line continues the value on the next one.
    while (/(^|[^\\])(\\\\)*\\$/.test(rest) && i + 1 < lines.length) rest = rest.slice(0, -1) + (lines[++i] ?? "");
    out.push({ section, subsection, name, value: readValue(rest) });
  }
  return out;
}

function readValue(raw: string): string {
  let value = "";
  let quoted = false;
  let pendingSpace = "";
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i] ?? "";
    if (c === "\\") {
      const next = raw[++i] ?? "";
      value += pendingSpace + ({ n: "\n", t: "\t", b: "\b" }[next] ?? next);
      pendingSpace = "";
    } else if (c === '"') {
      value += pendingSpace;
      pendingSpace = "";
      quoted = !quoted;
    } else if (!quoted && (c === "#" || c === ";")) break;
    else if (!quoted && (c === " " || c === "\t")) pendingSpace += value === "" ? "" : c;
    else {
      value += pendingSpace + c;
      pendingSpace = "";
    }
  }
  return value;
}
