// go's rules (src/security/commands/rules/tool-rules.ts). go has no command aliases; its flags
// take one or two dashes. Refused: flags that name a program (-exec, -toolexec, -vettool), linker
// flags that name one (-extld, -extar, and -extldflags or -gccgoflags that hand gcc a wrapper, a
// program prefix, a linker path, a specs file, a plugin or a file of more flags), writes to go's
// configuration, `go tool` (a runner of any tool, the user's to allow), and fetching and running
// or installing a module by name. The module paths `go get`, `go mod download` and `go list -m`
// fetch are network targets for the SSRF rule.
import { ownArguments, positionals } from "../option-match.ts";
import { type InPlaceRewrite, type NetworkTarget, type RuleVerdict, type ToolRules, refuse } from "./tool-rules.ts";

const GO_REFUSED = ["exec", "toolexec", "vettool"];
const VALUE_FLAGS = [
  "-C",
  "-o",
  "-run",
  "-bench",
  "-tags",
  "-ldflags",
  "-gcflags",
  "-asmflags",
  "-gccgoflags",
  "-p",
  "-mod",
  "-modfile",
  "-overlay",
  "-pgo",
  "-count",
  "-timeout",
  "-coverprofile",
  "-covermode",
  "-coverpkg",
  "-skip",
  "-json",
];
/** gcc and ld options that name a program, a directory of programs, a plugin or more options. */
const CC_PROGRAM_FLAGS = /(?:^|[\s'"=,])(?:-wrapper\b|-B|-fuse-ld\b|--ld-path\b|--?specs\b|-fplugin\b|-?-plugin\b|@)/;

function own(args: readonly string[]): readonly string[] {
  return ownArguments(args, ["--", "-args", "--args"]);
}

const verdict = (args: readonly string[]): RuleVerdict | undefined => {
  const mine = own(args);
  for (const [i, arg] of mine.entries()) {
    const name = /^--?([\w-]+)/.exec(arg)?.[1];
    if (name !== undefined && GO_REFUSED.includes(name)) return refuse(`\`go -${name}\` names a program for go to run`);
    if (/-extld\b|-extar\b/.test(arg)) return refuse("`-extld`/`-extar` in linker flags name a program for go to run");
    // The flags' value may be attached or the next argument; reading both errs on the safe side.
    if (/extldflags|gccgoflags/.test(arg) && CC_PROGRAM_FLAGS.test(`${arg} ${mine[i + 1] ?? ""}`))
      return refuse("flags for the C compiler or linker name a program, a plugin or a file of more flags");
  }
  const [sub, ...rest] = positionals(mine, VALUE_FLAGS);
  if (sub === "env" && mine.some((a) => /^--?[wu]$/.test(a)))
    return refuse("`go env -w` writes go's configuration (GOFLAGS can name a program for later go calls)");
  if (sub === "run" && rest.some((p) => p.includes("@"))) return refuse("`go run pkg@version` fetches and runs a module by name", "go run");
  if (sub === "install") return refuse("`go install` builds and installs a program onto PATH, outside the workspace", "go install");
  if (sub === "tool") return refuse("`go tool` runs any tool by name (pprof and trace start servers and browsers)", "go tool");
  if (sub === "bug") return refuse("`go bug` opens a browser");
  if (sub === "doc" && mine.some((a) => /^--?http\b/.test(a))) return refuse("`go doc -http` starts a server and opens a browser");
  return undefined;
};

/** Module paths go fetches: their first element is a host when it has a dot (example.com/x, 127.0.0.1/x). */
const targets = (args: readonly string[]): NetworkTarget[] => {
  const [sub, ...rest] = positionals(own(args), VALUE_FLAGS);
  const fetching =
    sub === "get" ||
    (sub === "mod" && rest[0] === "download") ||
    (sub === "list" && own(args).includes("-m")) ||
    sub === "install" ||
    sub === "run";
  if (!fetching) return [];
  const found: NetworkTarget[] = [];
  for (const arg of rest) {
    if (arg.startsWith(".") || arg.startsWith("/")) continue;
    const host = (arg.split("@")[0] ?? "").split("/")[0] ?? "";
    if (/^(\[[0-9a-f:.]+\]|[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+|localhost)$/i.test(host))
      found.push({ arg, host: host.replace(/^\[|\]$/g, "") });
  }
  return found;
};

/** `go fmt` and `go fix` rewrite every file of the packages they are given, found from the module's root. */
const rewrites = (args: readonly string[]): InPlaceRewrite | undefined => {
  const [sub] = positionals(own(args), VALUE_FLAGS);
  return sub === "fmt" || sub === "fix" ? { scope: "folder", skips: [".git"] } : undefined;
};

export const goRules: ToolRules = { verdict, targets, rewrites };

/**
 * The environment the bridge's own go checks run with (go vet after an edit, getDiagnostics' go
 * vet): go vet compiles and type-checks, and runs no project code, but some settings would make it
 * run a program: cgo runs the C compiler (and pkg-config) with flags from the sources, GOFLAGS (from
 * the environment or go's env file) may carry -toolexec or -vettool, a go.mod's toolchain line
 * downloads and runs another go, a missing module is fetched from the network, and a build stamped
 * with version control runs git in the repository (whose config can name programs).
 */
export const GO_CHECK_ENV: Readonly<Record<string, string>> = {
  CGO_ENABLED: "0",
  GOFLAGS: "-buildvcs=false",
  GOENV: "off",
  GOTOOLCHAIN: "local",
  GOPROXY: "off",
};
