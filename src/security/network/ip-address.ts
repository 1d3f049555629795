// IP literals parsed the way the OS would read them, so the SSRF block list (src/security/network/ssrf.ts)
// judges the address a connection would really reach, whatever spelling the URL used: inet_aton's
// IPv4 forms (decimal "2130706433", octal "0177.0.0.1", hex "0x7f.1", short "127.1") and every
// IPv6 form (compressed, with a dotted IPv4 tail, with a zone id).

/** An IPv4 address as an unsigned 32-bit number. */
export interface Ipv4 {
  kind: "ipv4";
  value: number;
}

/** An IPv6 address as its eight 16-bit groups. */
export interface Ipv6 {
  kind: "ipv6";
  groups: readonly number[];
}

export type IpAddress = Ipv4 | Ipv6;

/**
 * inet_aton(3): one to four parts, each decimal, octal (leading 0) or hex (0x); the last part
 * fills all the bytes left ("127.1" is 127.0.0.1, "2130706433" too). Undefined when not such a literal.
 */
export function parseIpv4(text: string): Ipv4 | undefined {
  const parts = text.split(".");
  // One trailing dot is allowed, as resolvers do ("127.0.0.1.").
  if (parts.length > 1 && parts[parts.length - 1] === "") parts.pop();
  if (parts.length === 0 || parts.length > 4) return undefined;
  const numbers: number[] = [];
  for (const part of parts) {
    const n = parseIpv4Part(part);
    if (n === undefined) return undefined;
    numbers.push(n);
  }
  const last = numbers.pop() ?? 0;
  let value = 0;
  for (const byte of numbers) {
    if (byte > 255) return undefined;
    value = value * 256 + byte;
  }
  const lastBytes = 4 - numbers.length;
  if (last >= 256 ** lastBytes) return undefined;
  return { kind: "ipv4", value: value * 256 ** lastBytes + last };
}

function parseIpv4Part(part: string): number | undefined {
  let digits = part;
  let radix = 10;
  if (/^0x/i.test(part)) {
    digits = part.slice(2);
    radix = 16;
    // "0x" alone is 0 to inet_aton.
    if (digits === "") return 0;
  } else if (part.length > 1 && part.startsWith("0")) {
    digits = part.slice(1);
    radix = 8;
  }
  const pattern = radix === 16 ? /^[0-9a-f]+$/i : radix === 8 ? /^[0-7]+$/ : /^[0-9]+$/;
  if (!pattern.test(digits)) return undefined;
  const n = Number.parseInt(digits, radix);
  return Number.isSafeInteger(n) && n <= 0xffffffff ? n : undefined;
}

/** Any IPv6 text form, brackets and a zone id ("%eth0", "%25eth0") allowed. */
export function parseIpv6(text: string): Ipv6 | undefined {
  let body = text.startsWith("[") && text.endsWith("]") ? text.slice(1, -1) : text;
  const zone = body.indexOf("%");
  if (zone !== -1) body = body.slice(0, zone);
  if (!body.includes(":")) return undefined;
  const halves = body.split("::");
  if (halves.length > 2) return undefined;
  const head = groupsOf(halves[0] ?? "");
  const tail = halves.length === 2 ? groupsOf(halves[1] ?? "") : [];
  if (head === undefined || tail === undefined) return undefined;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined;
  return { kind: "ipv6", groups: [...head, ...new Array<number>(halves.length === 2 ? missing : 0).fill(0), ...tail] };
}

/** The groups of one side of "::"; a dotted IPv4 may end it (two groups). */
function groupsOf(side: string): number[] | undefined {
  if (side === "") return [];
  const out: number[] = [];
  const pieces = side.split(":");
  for (const [i, piece] of pieces.entries()) {
    if (i === pieces.length - 1 && piece.includes(".")) {
      // Only the strict dotted-quad form is valid inside IPv6 (RFC 4291, section 2.2).
      if (!/^\d{1,3}(\.\d{1,3}){3}$/.test(piece)) return undefined;
      const v4 = parseIpv4(
        piece
          .split(".")
          .map((p) => String(Number(p)))
          .join("."),
      );
      if (v4 === undefined) return undefined;
      out.push(Math.floor(v4.value / 65536), v4.value % 65536);
      continue;
    }
    if (!/^[0-9a-f]{1,4}$/i.test(piece)) return undefined;
    out.push(Number.parseInt(piece, 16));
  }
  return out;
}

/** An IPv4 literal in any inet_aton form, or an IPv6 literal; undefined for a name. */
export function parseIpAddress(text: string): IpAddress | undefined {
  return parseIpv4(text) ?? parseIpv6(text);
}

export function formatIpv4(value: number): string {
  return [24, 16, 8, 0].map((shift) => Math.floor(value / 2 ** shift) % 256).join(".");
}
