// Reads a response body up to a byte cap (what is left is cancelled, so a huge or endless body
// costs nothing), undoing gzip/deflate with the web-standard DecompressionStream, and decodes it as
// text unless it looks binary.
import { concatBytes } from "../../lib/text/bytes.ts";

interface ReadBody {
  text: string | undefined;
  /** Bytes kept (after decompression). */
  bytes: number;
  /** The body went on past the cap. */
  truncated: boolean;
}

const DECOMPRESSIBLE: Readonly<Record<string, CompressionFormat>> = { gzip: "gzip", "x-gzip": "gzip", deflate: "deflate" };

export async function readBody(response: Response, maxBytes: number): Promise<ReadBody> {
  if (response.body === null) return { text: "", bytes: 0, truncated: false };
  const encoding = response.headers.get("content-encoding")?.trim().toLowerCase() ?? "";
  const format = DECOMPRESSIBLE[encoding];
  const stream = format === undefined ? response.body : response.body.pipeThrough(new DecompressionStream(format));
  const { bytes, truncated } = await readAtMost(stream, maxBytes);
  return {
    text: looksBinary(bytes, response.headers.get("content-type")) ? undefined : new TextDecoder().decode(bytes),
    bytes: bytes.length,
    truncated,
  };
}

async function readAtMost(stream: ReadableStream<Uint8Array>, maxBytes: number): Promise<{ bytes: Uint8Array; truncated: boolean }> {
  const reader = stream.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  let truncated = false;
  try {
    while (size <= maxBytes) {
      const { value, done } = await reader.read();
      if (done) break;
      parts.push(value);
      size += value.length;
    }
    if (size > maxBytes) truncated = true;
  } finally {
    // Stops the download (and the server) instead of draining what nobody will read.
    await reader.cancel().catch(() => {});
  }
  const all = concatBytes(parts).subarray(0, maxBytes);
  return { bytes: all, truncated };
}

const TEXTUAL =
  /^(text\/|application\/([\w.+-]*\+)?(json|xml|javascript|x-www-form-urlencoded|graphql|yaml|x-yaml|problem\+json|ld\+json)\b)/i;

function looksBinary(bytes: Uint8Array, contentType: string | null): boolean {
  if (contentType !== null && TEXTUAL.test(contentType.trim())) return false;
  // A NUL byte in the first KB is what tells binary apart in practice (git and grep use it too).
  return bytes.subarray(0, 1024).includes(0);
}
