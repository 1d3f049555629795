// .http files (VS Code REST Client and JetBrains HTTP Client): requests separated by "###", file
// variables "@name = value" used as {{name}}, "# @name" request names, headers up to a blank line,
// then the body. Parsing only: nothing is sent, and neither system variables ({{$guid}}) nor
// environment lookups ({{$processEnv ...}}, which could leak secrets into a URL) are expanded.
// JetBrains response-handler scripts ("> {% ... %}") are dropped, never run.

interface HttpFileRequest {
  name?: string;
  /** 1-based line of the request line. */
  line: number;
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  /** {{…}} references left as they are (system, environment or unknown variables). */
  unresolved: string[];
}

interface HttpFile {
  requests: HttpFileRequest[];
  variables: Record<string, string>;
}

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "TRACE", "CONNECT"];
const REQUEST_LINE = new RegExp(`^(?:(${METHODS.join("|")})\\s+)?(\\S+?)(?:\\s+HTTP\\/[\\d.]+)?\\s*$`, "i");
const VARIABLE = /^@([\w.-]+)\s*=\s*(.*)$/;
const NAME_COMMENT = /^(?:#|\/\/)\s*@name\s+(\S+)/;

export function parseHttpFile(text: string): HttpFile {
  const lines = text.split(/\r?\n/);
  const raw: Record<string, string> = {};
  const blocks: Block[] = [newBlock(0)];
  for (const [i, line] of lines.entries()) {
    if (line.startsWith("###")) {
      blocks.push(newBlock(i + 1));
      continue;
    }
    const block = blocks[blocks.length - 1] ?? newBlock(i);
    const variable = VARIABLE.exec(line.trim());
    if (variable !== null && block.state !== "body") {
      raw[variable[1] ?? ""] = (variable[2] ?? "").trim();
      // Kept as a blank line, which ends a request's headers.
      block.lines.push("");
      if (block.state === "headers") block.state = "body";
      continue;
    }
    block.lines.push(line);
    // Where the block is, kept as lines come (looking back over the block for each line was quadratic).
    if (block.state === "before" && isRequestLine(line)) block.state = "headers";
    else if (block.state === "headers" && line.trim() === "") block.state = "body";
  }
  const variables = resolveVariables(raw);
  const requests = blocks.flatMap((b) => {
    const request = parseBlock(b.lines, b.start, variables);
    return request === undefined ? [] : [request];
  });
  return { requests, variables };
}

interface Block {
  start: number;
  lines: string[];
  /** Before its request line, in its headers, or in its body (where `@x = y` is text, not a variable). */
  state: "before" | "headers" | "body";
}

function newBlock(start: number): Block {
  return { start, lines: [], state: "before" };
}

function isRequestLine(line: string): boolean {
  const trimmed = line.trim();
  return trimmed !== "" && !isComment(trimmed) && REQUEST_LINE.test(trimmed);
}

function isComment(line: string): boolean {
  return line.startsWith("#") || line.startsWith("//");
}

function parseBlock(lines: readonly string[], start: number, variables: Record<string, string>): HttpFileRequest | undefined {
  let name: string | undefined;
  let i = 0;
  for (; i < lines.length; i++) {
    const line = (lines[i] ?? "").trim();
    const named = NAME_COMMENT.exec(line);
    if (named !== null) name = named[1];
    if (line !== "" && !isComment(line)) break;
  }
  const match = REQUEST_LINE.exec((lines[i] ?? "").trim());
  if (match === null) return undefined;
  const line = start + i + 1;
  const unresolved = new Set<string>();
  const expand = (s: string) => substitute(s, variables, unresolved);
  let url = match[2] ?? "";
  // REST Client lets a long query continue on lines starting with ? or &.
  while (/^\s*[?&]/.test(lines[i + 1] ?? "")) url += (lines[++i] ?? "").trim();
  const headers: Record<string, string> = {};
  for (i++; i < lines.length && (lines[i] ?? "").trim() !== ""; i++) {
    const header = /^([^:\s]+)\s*:\s*(.*)$/.exec((lines[i] ?? "").trim());
    if (header !== null && !isComment((lines[i] ?? "").trim())) headers[header[1] ?? ""] = expand(header[2] ?? "");
  }
  const body = bodyOf(lines.slice(i + 1));
  const request: HttpFileRequest = { line, method: (match[1] ?? "GET").toUpperCase(), url: expand(url), headers, unresolved: [] };
  if (name !== undefined) request.name = name;
  if (body !== undefined) request.body = expand(body);
  request.unresolved = [...unresolved];
  return request;
}

function bodyOf(lines: readonly string[]): string | undefined {
  const kept: string[] = [];
  let script = false;
  for (const line of lines) {
    const trimmed = line.trim();
    if (trimmed.startsWith("> {%")) script = !trimmed.endsWith("%}");
    else if (script) script = !trimmed.endsWith("%}");
    else if (!trimmed.startsWith("<> ")) kept.push(line);
  }
  const body = kept.join("\n").trim();
  return body === "" ? undefined : body;
}

const MAX_EXPANDED_CHARS = 1024 * 1024;

/** {{name}} replaced by the file variable; found with indexOf, linear even in a file of "{{" alone. */
function substitute(text: string, variables: Record<string, string>, unresolved: Set<string>): string {
  let out = "";
  let at = 0;
  for (;;) {
    const open = text.indexOf("{{", at);
    const close = open === -1 ? -1 : text.indexOf("}}", open + 2);
    if (close === -1) return out + text.slice(at);
    const inner = text.slice(open + 2, close);
    const brace = inner.lastIndexOf("}");
    if (brace !== -1) {
      // "{{a}b}}": the reference is what follows the last "}" ("{{" inside it start later ones).
      out += text.slice(at, open + 2 + brace + 1);
      at = open + 2 + brace + 1;
      continue;
    }
    const lastOpen = inner.lastIndexOf("{{");
    if (lastOpen !== -1) {
      out += text.slice(at, open + 2 + lastOpen);
      at = open + 2 + lastOpen;
      continue;
    }
    const key = inner.trim();
    out += text.slice(at, open);
    if (key === "") out += text.slice(open, close + 2);
    // A value past the cap stays a reference: `@b = {{a}}{{a}}...` must not grow without bound.
    else if (variables[key] !== undefined && out.length + variables[key].length <= MAX_EXPANDED_CHARS) out += variables[key];
    else {
      unresolved.add(key);
      out += text.slice(open, close + 2);
    }
    at = close + 2;
  }
}

/** File variables may use each other ({{base}}/api); a cycle stops after a few rounds. */
function resolveVariables(raw: Record<string, string>): Record<string, string> {
  const out = { ...raw };
  for (let round = 0; round < 8; round++) {
    let changed = false;
    for (const [key, value] of Object.entries(out)) {
      const next = substitute(value, out, new Set());
      if (next !== value) {
        out[key] = next;
        changed = true;
      }
    }
    if (!changed) break;
  }
  return out;
}
