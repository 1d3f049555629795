// file:// URIs <-> absolute POSIX paths. Claude Code and VS Code exchange file URIs, and VS Code
// percent-encodes everything but RFC 3986 unreserved characters (and "/") in the path; we do
// the same so URIs we hand out compare equal to the editor's.

const UNRESERVED = /[A-Za-z0-9\-._~]/;

export function toFileUri(absolutePath: string): string {
  let out = "";
  for (const byte of new TextEncoder().encode(absolutePath)) {
    const ch = String.fromCharCode(byte);
    out += byte < 0x80 && (ch === "/" || UNRESERVED.test(ch)) ? ch : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return `file://${out}`;
}

/**
 * The absolute path of a file:// URI, or undefined when it is not one we accept: only empty or
 * "localhost" hosts (a UNC-style host would name another machine), no query or fragment.
 */
export function fromFileUri(uri: string): string | undefined {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return undefined;
  }
  if (url.protocol !== "file:") return undefined;
  if (url.host !== "" && url.host !== "localhost") return undefined;
  if (url.search !== "" || url.hash !== "") return undefined;
  try {
    return decodeURIComponent(url.pathname);
  } catch {
    return undefined;
  }
}
