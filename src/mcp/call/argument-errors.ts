// Argument mistakes answered in plain words: models do make them (Claude Code's own Read
// takes `file_path`, ours `path`), and valibot's wording ("Invalid key: Expected never but received
// …") does not tell them what to do. This turns validation issues into "unknown argument `file_path`
// (did you mean `path`?)", "missing required argument `path`", "`startLine` must be >= 1, got 0".
import type * as v from "valibot";
import { closestName } from "./closest-name.ts";

type Issue = v.BaseIssue<unknown>;

export interface ArgumentShape {
  /** Every argument the tool takes, in declaration order. */
  names: readonly string[];
  /** The ones without a default that must be given. */
  required: ReadonlySet<string>;
}

export function describeArgumentIssues(issues: readonly Issue[], shape: ArgumentShape): string {
  const unknown: string[] = [];
  const missing: string[] = [];
  const other: string[] = [];
  for (const issue of issues) {
    const path = pathOf(issue);
    const last = issue.path?.[issue.path.length - 1];
    if (issue.type === "strict_object" && last?.origin === "key") {
      if (issue.expected === "never") unknown.push(path);
      else missing.push(path);
    } else if (path === "") {
      other.push(`the arguments must be a JSON object, got ${issue.received}`);
    } else {
      other.push(`\`${path}\` ${expectation(issue)}`);
    }
  }
  const parts: string[] = [];
  for (const name of unknown) {
    const near = closestName(name, shape.names);
    parts.push(near === undefined ? `unknown argument \`${name}\`` : `unknown argument \`${name}\` (did you mean \`${near}\`?)`);
  }
  for (const name of new Set(missing)) parts.push(`missing required argument \`${name}\``);
  parts.push(...other);
  if (unknown.length > 0 || missing.length > 0) parts.push(`allowed: ${describeShape(shape)}`);
  return parts.slice(0, 8).join("; ");
}

/** "path (required), startLine, endLine", or "none" for a tool without arguments. */
function describeShape(shape: ArgumentShape): string {
  if (shape.names.length === 0) return "none (call it with {})";
  return shape.names.map((n) => (shape.required.has(n) ? `${n} (required)` : n)).join(", ");
}

/** Dotted path of the issue: `startLine`, `edits[2].line`; "" for the arguments object itself. */
function pathOf(issue: Issue): string {
  let out = "";
  for (const item of issue.path ?? []) {
    const key = item.key;
    out += typeof key === "number" ? `[${key}]` : out === "" ? String(key) : `.${String(key)}`;
  }
  return out;
}

function expectation(issue: Issue): string {
  const got = `got ${received(issue.received)}`;
  switch (issue.type) {
    case "min_value":
      return `must be ${issue.expected ?? "larger"}, ${got}`;
    case "max_value":
      return `must be ${issue.expected ?? "smaller"}, ${got}`;
    case "integer":
      return `must be a whole number, ${got}`;
    case "min_length":
      return issue.expected === ">=1" ? "must not be empty" : `must have length ${issue.expected ?? ""}, ${got}`;
    case "max_length":
      return `is too long (length must be ${issue.expected ?? "smaller"})`;
    case "picklist":
      return `must be one of ${(issue.expected ?? "").replace(/^\(|\)$/g, "").replace(/ \| /g, ", ")}, ${got}`;
    case "literal":
      return `must be ${issue.expected ?? "a fixed value"}, ${got}`;
    default:
      return issue.kind === "schema" && issue.expected !== null
        ? `must be ${article(issue.expected)}, ${got}`
        : `${issue.message.replace(/^Invalid \w+: /, "is invalid: ")}`;
  }
}

/** valibot writes strings quoted ("\"3\"") and other values bare ("1", "null"). */
function received(value: string): string {
  return value.startsWith('"') ? `the string ${value}` : value;
}

function article(type: string): string {
  if (/^(Object|Array)$/.test(type)) return `an ${type.toLowerCase()}`;
  if (/^[a-z]+$/.test(type)) return `${/^[aeiou]/.test(type) ? "an" : "a"} ${type}`;
  return type;
}
