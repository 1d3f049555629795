// What an npm package argument names, read the way npm-package-arg reads it (npa.js, with
// hosted-git-info for the git hosts' shorthands): a registry package (a name, with a range, tag or
// npm: alias), a git repository (git+..., git://, ssh, git@host:path, github:/gitlab:/bitbucket:/
// gist:/sourcehut: shortcuts, a bare user/repo, an https URL on a git host), a remote tarball (an
// http(s) URL), or a local path (file:..., ./x, ../x, /x, ~/x, a name ending in .tgz). Anything
// npm would not read as a registry package is never read as one here.
// test/unit/security/npm-specs.test.ts compares the kind with the installed npm's own parser.

export type NpmSpec = { kind: "registry" } | { kind: "git" | "remote"; url: string } | { kind: "path"; path: string };

const IS_URL = /^(?:git[+])?[a-z]+:/i;
const IS_SCP_GIT = /^[^@]+@[^:.]+\.[^:]+:.+$/i;
const IS_FILE_TYPE = /[.](?:tgz|tar\.gz|tar)$/i;
const IS_POSIX_FILE = /^(?:[.]|~[/]|[/]|[a-zA-Z]:)/;
const GIT_SHORTCUTS = ["github:", "gitlab:", "bitbucket:", "gist:", "sourcehut:"];
const GIT_HOSTS = ["github.com", "gitlab.com", "bitbucket.org", "gist.github.com", "git.sr.ht"];
const GIT_PROTOCOLS = ["git:", "git+ssh:", "git+https:", "git+http:", "git+file:", "ssh:"];

/** How npm reads one package argument. */
export function npmSpec(arg: string): NpmSpec {
  const nameEndsAt = arg.indexOf("@", 1);
  const namePart = nameEndsAt > 0 ? arg.slice(0, nameEndsAt) : arg;
  if (IS_URL.test(arg)) return specOf(arg);
  if (IS_SCP_GIT.test(arg)) return { kind: "git", url: `git+ssh://${arg}` };
  if (!namePart.startsWith("@") && (namePart.includes("/") || IS_FILE_TYPE.test(namePart))) return specOf(arg);
  if (nameEndsAt > 0) return specOf(arg.slice(nameEndsAt + 1) || "*");
  return { kind: "registry" };
}

function specOf(spec: string): NpmSpec {
  if (/^file:/i.test(spec) || IS_POSIX_FILE.test(spec)) return { kind: "path", path: filePath(spec) };
  // An alias names another package, read the same way.
  if (/^npm:/i.test(spec)) return npmSpec(spec.slice(4));
  if (isHostedGit(spec)) return { kind: "git", url: spec };
  if (IS_URL.test(spec)) {
    const protocol = (/^[a-z+]+:/i.exec(spec)?.[0] ?? "").toLowerCase();
    if (GIT_PROTOCOLS.includes(protocol) || protocol.startsWith("git+")) return { kind: "git", url: spec };
    // http(s) is a tarball; npm refuses other schemes, and none is a registry package.
    return { kind: "remote", url: spec };
  }
  if (spec.includes("/") || IS_FILE_TYPE.test(spec)) return { kind: "path", path: filePath(spec) };
  return { kind: "registry" };
}

/** The path of a file spec: "file:" and "file://" dropped (npm reads file:../x and file:///abs alike). */
function filePath(spec: string): string {
  if (!/^file:/i.test(spec)) return spec;
  const rest = spec.slice(5);
  if (rest.startsWith("//")) {
    const afterHost = rest.slice(2);
    const slash = afterHost.indexOf("/");
    return slash === -1 ? "/" : afterHost.slice(slash);
  }
  return rest;
}

function isHostedGit(spec: string): boolean {
  if (isGitHubShorthand(spec)) return true;
  const lower = spec.toLowerCase();
  if (GIT_SHORTCUTS.some((s) => lower.startsWith(s))) return true;
  const url = URL.canParse(spec.replace(/^git\+/i, "")) ? new URL(spec.replace(/^git\+/i, "")) : undefined;
  if (url === undefined) return false;
  const host = url.hostname.toLowerCase().replace(/^www\./, "");
  return GIT_HOSTS.includes(host);
}

/** hosted-git-info's "npm/cli" test: one slash, no protocol, @, space or second slash before any "#". */
function isGitHubShorthand(arg: string): boolean {
  const firstHash = arg.indexOf("#");
  const before = (i: number) => i === -1 || (firstHash > -1 && i > firstHash);
  const firstSlash = arg.indexOf("/");
  const secondSlash = arg.indexOf("/", firstSlash + 1);
  const space = /\s/.exec(arg)?.index ?? -1;
  const endsWithSlash = firstHash > -1 ? arg[firstHash - 1] === "/" : arg.endsWith("/");
  return (
    before(space) &&
    firstSlash > 0 &&
    !endsWithSlash &&
    !arg.startsWith(".") &&
    before(arg.indexOf("@")) &&
    before(arg.indexOf(":")) &&
    before(secondSlash)
  );
}
