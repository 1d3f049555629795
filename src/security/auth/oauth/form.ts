// Reading the parameters of OAuth requests: application/x-www-form-urlencoded bodies (RFC 6749
// 3.2) and queries, each parameter at most once (RFC 6749 3.1), bodies bounded in size.
import { OAuthError } from "./oauth-error.ts";

export type Params = ReadonlyMap<string, string>;

interface ParamOptions {
  /** Names that may repeat (a form's checkboxes): their values are joined with spaces. */
  joined?: readonly string[];
}

/** The parameters of a query or form body; a repeated parameter is an invalid_request. */
export function singleParams(search: URLSearchParams, opts: ParamOptions = {}): Params {
  const out = new Map<string, string>();
  for (const [name, value] of search) {
    const before = out.get(name);
    if (before !== undefined && opts.joined?.includes(name) === true) out.set(name, `${before} ${value}`);
    else if (before !== undefined) throw new OAuthError("invalid_request", `parameter "${name}" is given more than once`);
    else out.set(name, value);
  }
  return out;
}

export async function readForm(request: Request, maxBytes: number, opts: ParamOptions = {}): Promise<Params> {
  const type = request.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase();
  if (type !== "application/x-www-form-urlencoded")
    throw new OAuthError("invalid_request", "the body must be application/x-www-form-urlencoded");
  return singleParams(new URLSearchParams(await readText(request, maxBytes)), opts);
}

export async function readJson(request: Request, maxBytes: number): Promise<unknown> {
  const type = request.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase();
  if (type !== "application/json") throw new OAuthError("invalid_request", "the body must be application/json");
  const text = await readText(request, maxBytes);
  try {
    return JSON.parse(text);
  } catch {
    throw new OAuthError("invalid_request", "the body is not valid JSON");
  }
}

export async function readText(request: Request, maxBytes: number): Promise<string> {
  const tooLarge = () => new OAuthError("invalid_request", `the body is larger than ${maxBytes} bytes`, { status: 413 });
  if (Number(request.headers.get("content-length") ?? "0") > maxBytes) throw tooLarge();
  if (request.body === null) return "";
  const reader = request.body.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    parts.push(value);
  }
  const all = new Uint8Array(size);
  let at = 0;
  for (const part of parts) {
    all.set(part, at);
    at += part.byteLength;
  }
  return new TextDecoder().decode(all);
}
