// Whether an executable is a Go program: every Go executable since 1.13 carries its build information
// behind a fixed magic ("\xff Go buildinf:"), which delve needs and lldb does not understand.
import type { Fs } from "../ports/fs.ts";

const GO_BUILD_INFO = Uint8Array.of(0xff, ...new TextEncoder().encode(" Go buildinf:"));
/** Larger files are not read whole to be told apart: they are taken for C/C++. */
const MAX_EXECUTABLE_BYTES = 512 * 1024 * 1024;

export async function isGoExecutable(fs: Pick<Fs, "stat" | "readFile">, path: string): Promise<boolean> {
  const stat = await fs.stat(path).catch(() => undefined);
  if (stat === undefined || stat.size > MAX_EXECUTABLE_BYTES) return false;
  const bytes = await fs.readFile(path).catch(() => new Uint8Array());
  return indexOf(bytes, GO_BUILD_INFO) >= 0;
}

function indexOf(haystack: Uint8Array, needle: Uint8Array): number {
  const first = needle[0];
  for (let i = haystack.indexOf(first ?? 0); i >= 0 && i <= haystack.length - needle.length; i = haystack.indexOf(first ?? 0, i + 1)) {
    if (needle.every((byte, j) => haystack[i + j] === byte)) return i;
  }
  return -1;
}
