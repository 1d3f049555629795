// The MIME type of a workspace file, by its extension, and whether its bytes are text. What a
// client does with a resource depends on both: text is shown, a blob is passed on or skipped.

const TYPES: Readonly<Record<string, string>> = {
  ts: "text/x-typescript",
  tsx: "text/x-typescript",
  mts: "text/x-typescript",
  cts: "text/x-typescript",
  js: "text/javascript",
  mjs: "text/javascript",
  cjs: "text/javascript",
  jsx: "text/javascript",
  json: "application/json",
  md: "text/markdown",
  html: "text/html",
  css: "text/css",
  py: "text/x-python",
  rs: "text/x-rust",
  go: "text/x-go",
  java: "text/x-java",
  c: "text/x-c",
  h: "text/x-c",
  cpp: "text/x-c++",
  sh: "text/x-shellscript",
  yml: "application/yaml",
  yaml: "application/yaml",
  toml: "application/toml",
  xml: "application/xml",
  svg: "image/svg+xml",
  txt: "text/plain",
  csv: "text/csv",
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  ico: "image/x-icon",
  pdf: "application/pdf",
  zip: "application/zip",
  gz: "application/gzip",
  wasm: "application/wasm",
  woff: "font/woff",
  woff2: "font/woff2",
};

export function mimeTypeOf(name: string, isText: boolean): string {
  const dot = name.lastIndexOf(".");
  const known = dot >= 0 ? TYPES[name.slice(dot + 1).toLowerCase()] : undefined;
  return known ?? (isText ? "text/plain" : "application/octet-stream");
}

/** UTF-8 with no NUL byte: what git and editors call text. */
export function decodeText(bytes: Uint8Array): string | undefined {
  if (bytes.includes(0)) return undefined;
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

export function toBase64(bytes: Uint8Array): string {
  let binary = "";
  const chunk = 0x8000;
  for (let i = 0; i < bytes.length; i += chunk) binary += String.fromCharCode(...bytes.subarray(i, i + chunk));
  return btoa(binary);
}
