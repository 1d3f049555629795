// Which addresses sendHttpRequest may never reach (the lexical layer of src/security/network/ssrf.ts):
// everything that is not public unicast. IPv4 by the IANA special-purpose registry; IPv6 by the
// opposite rule, only global unicast (2000::/3) minus its special ranges, so a new reserved range
// is blocked before anyone lists it. IPv6 forms that carry an IPv4 address are unwrapped first.
import { formatIpv4, parseIpAddress, type IpAddress, type Ipv4, type Ipv6 } from "./ip-address.ts";

const IPV4_BLOCKED: readonly [string, number, string][] = [
  ["0.0.0.0", 8, "this network (0.0.0.0/8 reaches the local host)"],
  ["10.0.0.0", 8, "private (10.0.0.0/8)"],
  ["100.64.0.0", 10, "shared address space (100.64.0.0/10, incl. cloud metadata 100.100.100.200)"],
  ["127.0.0.0", 8, "loopback (127.0.0.0/8)"],
  ["169.254.0.0", 16, "link-local (169.254.0.0/16, incl. cloud metadata 169.254.169.254)"],
  ["172.16.0.0", 12, "private (172.16.0.0/12)"],
  ["192.0.0.0", 24, "IETF protocol assignments (192.0.0.0/24)"],
  ["192.0.2.0", 24, "documentation (192.0.2.0/24)"],
  ["192.88.99.0", 24, "6to4 relay anycast (192.88.99.0/24)"],
  ["192.168.0.0", 16, "private (192.168.0.0/16)"],
  ["198.18.0.0", 15, "benchmarking (198.18.0.0/15)"],
  ["198.51.100.0", 24, "documentation (198.51.100.0/24)"],
  ["203.0.113.0", 24, "documentation (203.0.113.0/24)"],
  ["224.0.0.0", 4, "multicast (224.0.0.0/4)"],
  ["240.0.0.0", 4, "reserved (240.0.0.0/4, incl. broadcast)"],
];

/** Inside 2000::/3, still not a public host (prefix as text, length in bits). */
const IPV6_BLOCKED: readonly [string, number, string][] = [
  ["2001:db8::", 32, "documentation (2001:db8::/32)"],
  ["2001:10::", 28, "ORCHID (2001:10::/28)"],
  ["3fff::", 20, "documentation (3fff::/20)"],
  ["2001::", 32, "Teredo (2001::/32), which tunnels to an IPv4 address hidden in it"],
];

/** Names that mean this machine or a cloud metadata service without any DNS answer. */
const BLOCKED_NAMES = new Set([
  "localhost",
  "localhost.localdomain",
  "ip6-localhost",
  "ip6-loopback",
  "metadata",
  "metadata.google.internal",
  "metadata.goog",
  "instance-data",
  "instance-data.ec2.internal",
]);

/** Why a host must not be reached, or undefined for a public address or a name DNS must answer for. */
export function lexicalBlockReason(host: string): string | undefined {
  const name = host
    .toLowerCase()
    .replace(/^\[(.*)\]$/, "$1")
    .replace(/\.+$/, "");
  if (name === "") return "an empty host";
  if (BLOCKED_NAMES.has(name) || name.endsWith(".localhost")) return `${name} names this machine or a metadata service`;
  const address = parseIpAddress(name);
  return address === undefined ? undefined : addressBlockReason(address);
}

/** Why an address (already parsed) is not a public unicast host. */
function addressBlockReason(address: IpAddress): string | undefined {
  const unwrapped = unwrap(address);
  if (unwrapped.kind === "ipv4") {
    const hit = IPV4_BLOCKED.find(([base, bits]) => inIpv4Range(unwrapped, base, bits));
    if (hit === undefined) return undefined;
    const shown = address === unwrapped ? formatIpv4(unwrapped.value) : `${formatIpv4(unwrapped.value)} (inside an IPv6 address)`;
    return `${shown} is ${hit[2]}`;
  }
  if (!inIpv6Range(unwrapped, "2000::", 3))
    return `${describeIpv6(unwrapped)} is not a global unicast IPv6 address (loopback, link-local, unique-local, multicast or reserved)`;
  const hit = IPV6_BLOCKED.find(([base, bits]) => inIpv6Range(unwrapped, base, bits));
  return hit === undefined ? undefined : `${describeIpv6(unwrapped)} is ${hit[2]}`;
}

/**
 * The IPv4 address an IPv6 form carries (mapped ::ffff:a.b.c.d, translated ::ffff:0:a.b.c.d,
 * compatible ::a.b.c.d, NAT64 64:ff9b::/96, 6to4 2002::/16), repeated until nothing is left to
 * unwrap, so a form nested in another is judged by its innermost address.
 */
function unwrap(address: IpAddress): IpAddress {
  let current = address;
  for (;;) {
    const inner = current.kind === "ipv6" ? embeddedIpv4(current.groups) : undefined;
    if (inner === undefined) return current;
    current = inner;
  }
}

function embeddedIpv4(g: readonly number[]): Ipv4 | undefined {
  const zero = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  const tail = (g[6] ?? 0) * 65536 + (g[7] ?? 0);
  const v4 = (value: number): Ipv4 => ({ kind: "ipv4", value });
  if (zero(0, 5) && g[5] === 0xffff) return v4(tail);
  if (zero(0, 4) && g[4] === 0xffff && g[5] === 0) return v4(tail);
  // ::a.b.c.d, but not :: and ::1, which are IPv6's own unspecified and loopback addresses.
  if (zero(0, 6) && tail > 1) return v4(tail);
  if (g[0] === 0x64 && g[1] === 0xff9b && zero(2, 6)) return v4(tail);
  if (g[0] === 0x2002) return v4((g[1] ?? 0) * 65536 + (g[2] ?? 0));
  return undefined;
}

function inIpv4Range(address: Ipv4, base: string, bits: number): boolean {
  const start = parseIpAddress(base);
  if (start?.kind !== "ipv4") return false;
  const size = 2 ** (32 - bits);
  return Math.floor(address.value / size) === Math.floor(start.value / size);
}

function inIpv6Range(address: Ipv6, base: string, bits: number): boolean {
  const start = parseIpAddress(base);
  if (start?.kind !== "ipv6") return false;
  for (let i = 0, left = bits; left > 0; i++, left -= 16) {
    const take = Math.min(16, left);
    const shift = 16 - take;
    if ((address.groups[i] ?? 0) >> shift !== (start.groups[i] ?? 0) >> shift) return false;
  }
  return true;
}

function describeIpv6(address: Ipv6): string {
  return address.groups.map((g) => g.toString(16)).join(":");
}
