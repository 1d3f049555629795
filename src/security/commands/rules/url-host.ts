// The host an argument makes a tool connect to, read as the tools read remotes: a URL
// (scheme://[user@]host[:port]/...) or git's scp-like form ([user@]host:path, which git reaches
// over ssh). The host is returned as written, brackets removed: the SSRF rule reads every spelling
// of an address itself (src/security/network/blocked-addresses.ts). file: URLs are paths, for the
// path rule.

const URL_FORM = /^([a-z][a-z0-9+.-]*):\/\/([^/?#\s]*)/i;

/** The host of a URL argument, or undefined when it is not one (or is a file: URL). */
export function urlHost(value: string): string | undefined {
  const m = URL_FORM.exec(value.trim());
  if (m === null) return undefined;
  if ((m[1] ?? "").toLowerCase().replace(/^git\+/, "") === "file") return undefined;
  return hostOf(m[2] ?? "");
}

/** The host of git's scp-like remote `[user@]host:path`, or undefined. */
export function scpHost(value: string): string | undefined {
  if (value.includes("://") || value.startsWith("/") || value.startsWith(".")) return undefined;
  const colon = value.search(/:(?!:)/);
  const slash = value.indexOf("/");
  if (colon <= 0 || (slash !== -1 && slash < colon && !value.startsWith("["))) return undefined;
  const bracketed = /^(?:[^@/]*@)?\[([^\]]+)\]:/.exec(value);
  if (bracketed !== null) return bracketed[1];
  return hostOf(value.slice(0, colon));
}

function hostOf(authority: string): string | undefined {
  const afterUser = authority.slice(authority.lastIndexOf("@") + 1);
  const bracketed = /^\[([^\]]*)\]/.exec(afterUser);
  const host = bracketed !== null ? bracketed[1] : afterUser.replace(/:\d*$/, "");
  return host === undefined || host === "" ? undefined : host;
}

/** Hosts of option values that are URLs (`--registry=http://...`, `--index http://...`), before any "--". */
export function optionValueHosts(args: readonly string[]): { arg: string; host: string }[] {
  const end = args.indexOf("--");
  const own = end === -1 ? args : args.slice(0, end);
  const found: { arg: string; host: string }[] = [];
  for (const [i, arg] of own.entries()) {
    if (!arg.startsWith("-")) continue;
    const eq = arg.indexOf("=");
    const value = eq === -1 ? own[i + 1] : arg.slice(eq + 1);
    const host = value === undefined ? undefined : urlHost(value);
    if (host !== undefined) found.push({ arg, host });
  }
  return found;
}
