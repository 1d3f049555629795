// The project's code style, as its .editorconfig and formatter config (prettier, biome) say, turned
// into the settings TypeScript's servers format their own edits with (organize imports, quick fixes
// that add an import, renames that move one): without them a server writes semicolons, double
// quotes and 4-space indents into a project whose formatter says otherwise. A formatter config's
// explicit values win over .editorconfig; its defaults apply only where .editorconfig is silent.
import { compileGlob } from "../lib/glob/index.ts";
import type { ServerSpec } from "./server-specs.ts";

export interface ProjectStyle {
  indentSize?: number;
  useTabs?: boolean;
  semicolons?: boolean;
  singleQuote?: boolean;
  /** .editorconfig's insert_final_newline and trim_trailing_whitespace, for formatting requests. */
  insertFinalNewline?: boolean;
  trimTrailingWhitespace?: boolean;
  /** The files the style was read from, relative to the root. */
  from: string[];
}

/** Reads a file under the root; undefined when it is missing or unreadable. */
type ReadConfig = (relativePath: string) => Promise<string | undefined>;

/** The file the editorconfig sections are matched against: TypeScript is what these settings serve. */
const SAMPLE_FILE = "src/index.ts";
const STYLE_FILES = [".editorconfig", ".prettierrc", ".prettierrc.json", "package.json", "biome.json", "biome.jsonc"];

/** Whether a changed file (by basename) may change the style. */
export function isStyleFile(name: string): boolean {
  return STYLE_FILES.includes(name);
}

/** The style for `file` (root-relative; by default a TypeScript file, what the servers' settings serve). */
export async function readProjectStyle(read: ReadConfig, file = SAMPLE_FILE): Promise<ProjectStyle> {
  const style: ProjectStyle = { from: [] };
  const editorconfig = await read(".editorconfig");
  if (editorconfig !== undefined && mergeExplicit(style, editorConfigStyle(editorconfig, file))) style.from.push(".editorconfig");
  const formatter = await formatterStyle(read);
  if (formatter !== undefined) {
    mergeExplicit(style, formatter.explicit);
    mergeDefaults(style, formatter.defaults);
    style.from.push(formatter.file);
  }
  return style;
}

/** Settings for workspace/configuration and didChangeConfiguration of a TypeScript server. */
/** A server's settings with the project's style, for the servers that format TypeScript and JavaScript (`read`: a file under the server's root). */
export async function styledSettings(
  spec: Pick<ServerSpec, "languages" | "settings">,
  read: ReadConfig,
): Promise<Readonly<Record<string, unknown>> | undefined> {
  if (!spec.languages.includes("typescript") && !spec.languages.includes("javascript")) return spec.settings;
  const styled = typeScriptSettings(await readProjectStyle(read));
  if (styled === undefined) return spec.settings;
  // The style joins a section the spec also sets (TypeScript 7's "js/ts") rather than replace it.
  const merged: Record<string, unknown> = { ...spec.settings };
  for (const [section, value] of Object.entries(styled))
    merged[section] = { ...(spec.settings?.[section] as object | undefined), ...(value as object) };
  return merged;
}

export function typeScriptSettings(style: ProjectStyle): Record<string, unknown> | undefined {
  const format: Record<string, unknown> = {};
  if (style.indentSize !== undefined) {
    format.indentSize = style.indentSize;
    format.tabSize = style.indentSize;
  }
  if (style.useTabs !== undefined) format.convertTabsToSpaces = !style.useTabs;
  if (style.semicolons !== undefined) format.semicolons = style.semicolons ? "insert" : "remove";
  const preferences: Record<string, unknown> = {};
  if (style.singleQuote !== undefined) preferences.quoteStyle = style.singleQuote ? "single" : "double";
  if (Object.keys(format).length === 0 && Object.keys(preferences).length === 0) return undefined;
  const section = { format, preferences };
  // TypeScript 7 asks for "js/ts" first; typescript-language-server reads "typescript"/"javascript".
  return { "js/ts": section, typescript: section, javascript: section };
}

/**
 * FormattingOptions values for a formatting request (textDocument/formatting, rangeFormatting,
 * onTypeFormatting) about a file with this style: what the project says wins over what a caller
 * guessed from the file's own indentation.
 */
export function formattingOverrides(style: ProjectStyle): Record<string, boolean | number> {
  const out: Record<string, boolean | number> = {};
  if (style.indentSize !== undefined) out.tabSize = style.indentSize;
  if (style.useTabs !== undefined) out.insertSpaces = !style.useTabs;
  if (style.insertFinalNewline !== undefined) out.insertFinalNewline = style.insertFinalNewline;
  if (style.trimTrailingWhitespace !== undefined) out.trimTrailingWhitespace = style.trimTrailingWhitespace;
  return out;
}

type StyleValues = Omit<ProjectStyle, "from">;

const KEYS = ["indentSize", "useTabs", "semicolons", "singleQuote"] as const;
/** What a formatter config says (and defaults); .editorconfig says the newline keys too. */
type FormatterValues = Pick<StyleValues, (typeof KEYS)[number]>;
const EDITORCONFIG_KEYS = [...KEYS, "insertFinalNewline", "trimTrailingWhitespace"] as const;

function mergeExplicit(style: ProjectStyle, values: StyleValues): boolean {
  let any = false;
  for (const key of EDITORCONFIG_KEYS) {
    if (values[key] === undefined) continue;
    Object.assign(style, { [key]: values[key] });
    any = true;
  }
  return any;
}

function mergeDefaults(style: ProjectStyle, values: Required<FormatterValues>): void {
  for (const key of KEYS) if (style[key] === undefined) Object.assign(style, { [key]: values[key] });
}

/** indent_style, indent_size (or tab_width) and the newline keys of the sections that match the file, later ones winning. */
export function editorConfigStyle(text: string, file: string): StyleValues {
  const style: StyleValues = {};
  let applies = false;
  let indentSize: number | undefined;
  let tabWidth: number | undefined;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#") || line.startsWith(";")) continue;
    const section = /^\[(.*)\]$/.exec(line);
    if (section !== null) {
      applies = sectionMatches(section[1] ?? "", file);
      continue;
    }
    const eq = line.indexOf("=");
    if (!applies || eq < 0) continue;
    const key = line.slice(0, eq).trim().toLowerCase();
    const value = line
      .slice(eq + 1)
      .trim()
      .toLowerCase();
    if (key === "indent_style" && (value === "tab" || value === "space")) style.useTabs = value === "tab";
    else if (key === "indent_size" && /^\d+$/.test(value)) indentSize = Number(value);
    else if (key === "tab_width" && /^\d+$/.test(value)) tabWidth = Number(value);
    else if (key === "insert_final_newline" && (value === "true" || value === "false")) style.insertFinalNewline = value === "true";
    else if (key === "trim_trailing_whitespace" && (value === "true" || value === "false")) style.trimTrailingWhitespace = value === "true";
  }
  const size = indentSize ?? tabWidth;
  if (size !== undefined && size >= 1 && size <= 16) style.indentSize = size;
  return style;
}

function sectionMatches(pattern: string, file: string): boolean {
  // A pattern without a slash matches a file name at any depth; with one, a path from the root.
  const glob = pattern.includes("/") ? pattern.replace(/^\//, "") : `**/${pattern}`;
  try {
    return compileGlob(glob).matches(file);
  } catch {
    return false;
  }
}

interface FormatterStyle {
  file: string;
  explicit: FormatterValues;
  defaults: Required<FormatterValues>;
}

const PRETTIER_DEFAULTS: Required<FormatterValues> = { indentSize: 2, useTabs: false, semicolons: true, singleQuote: false };
const BIOME_DEFAULTS: Required<FormatterValues> = { indentSize: 2, useTabs: true, semicolons: true, singleQuote: false };

async function formatterStyle(read: ReadConfig): Promise<FormatterStyle | undefined> {
  for (const file of [".prettierrc", ".prettierrc.json"]) {
    const text = await read(file);
    if (text === undefined) continue;
    const config = parseJsonc(text) ?? parseFlatYaml(text);
    if (config !== undefined) return { file, explicit: prettierValues(config), defaults: PRETTIER_DEFAULTS };
  }
  const pkg = await read("package.json");
  const prettier = pkg === undefined ? undefined : (parseJsonc(pkg) as Record<string, unknown> | undefined)?.prettier;
  if (isRecord(prettier)) return { file: "package.json", explicit: prettierValues(prettier), defaults: PRETTIER_DEFAULTS };
  for (const file of ["biome.json", "biome.jsonc"]) {
    const text = await read(file);
    const config = text === undefined ? undefined : parseJsonc(text);
    if (config !== undefined) return { file, explicit: biomeValues(config), defaults: BIOME_DEFAULTS };
  }
  return undefined;
}

function prettierValues(config: Record<string, unknown>): FormatterValues {
  return {
    indentSize: typeof config.tabWidth === "number" ? config.tabWidth : undefined,
    useTabs: typeof config.useTabs === "boolean" ? config.useTabs : undefined,
    semicolons: typeof config.semi === "boolean" ? config.semi : undefined,
    singleQuote: typeof config.singleQuote === "boolean" ? config.singleQuote : undefined,
  };
}

function biomeValues(config: Record<string, unknown>): FormatterValues {
  const formatter = record(config.formatter);
  const js = record(record(config.javascript).formatter);
  const indentStyle = js.indentStyle ?? formatter.indentStyle;
  const indentWidth = js.indentWidth ?? formatter.indentWidth;
  return {
    indentSize: typeof indentWidth === "number" ? indentWidth : undefined,
    useTabs: indentStyle === "tab" ? true : indentStyle === "space" ? false : undefined,
    semicolons: js.semicolons === "asNeeded" ? false : js.semicolons === "always" ? true : undefined,
    singleQuote: js.quoteStyle === "single" ? true : js.quoteStyle === "double" ? false : undefined,
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function record(value: unknown): Record<string, unknown> {
  return isRecord(value) ? value : {};
}

/** JSON with comments and trailing commas (biome.jsonc, .prettierrc); undefined when it is not an object. */
export function parseJsonc(text: string): Record<string, unknown> | undefined {
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '"') {
      const start = i;
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === "\\") i++;
      out += text.slice(start, i + 1);
    } else if (ch === "/" && text[i + 1] === "/") {
      while (i < text.length && text[i] !== "\n") i++;
      out += "\n";
    } else if (ch === "/" && text[i + 1] === "*") {
      const end = text.indexOf("*/", i + 2);
      i = end < 0 ? text.length : end + 1;
    } else out += ch;
  }
  try {
    const value: unknown = JSON.parse(out.replace(/,(\s*[}\]])/g, "$1"));
    return isRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** A .prettierrc in YAML of top-level `key: value` lines, which is what the style keys need. */
function parseFlatYaml(text: string): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/\s+#.*$/, "").trimEnd();
    const m = /^([A-Za-z]+)\s*:\s*(.+)$/.exec(line);
    if (m === null) continue;
    const value = (m[2] ?? "").trim().replace(/^["']|["']$/g, "");
    out[m[1] ?? ""] = value === "true" ? true : value === "false" ? false : /^\d+$/.test(value) ? Number(value) : value;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}
