// What a project's own config files make a tool do beyond its arguments, read before the tool runs
// (runCommand, runInTerminal, and the runs the tools build: runTests, audits):
//   - npm reads `.npmrc` at the project and the registry, scoped registries and proxies it names
//     are hosts npm connects to (judged unless the command is one that reaches no registry: run,
//     test, pkg...); its `git`, `script-shell`, `node-options` (and the like) name
//     programs or code npm runs for every script and git dependency. pnpm (when --allow-command lets
//     it run) reads the same `.npmrc`, the same way, and its `pnpmfile` there is code it loads.
//   - yarn (when --allow-command lets it run) runs the JavaScript file `yarnPath` names in
//     `.yarnrc.yml` (`yarn-path` in classic yarn's `.yarnrc`) instead of itself, and loads the
//     `plugins` listed there, for every command, `yarn --version` included: files the model can
//     write. Its registries and proxies (`npmRegistryServer`, `httpProxy`, classic's `registry`,
//     `proxy`) are hosts it connects to.
//   - cargo reads `.cargo/config.toml` (and `.cargo/config`) in the directory and every parent: a
//     registry index, a source replacement or an http proxy is a host cargo connects to.
//   - pytest reads `addopts` from pytest.ini, pyproject.toml, tox.ini or setup.cfg: a `-p name`
//     there imports any module installed on the machine (`-p antigravity` opens a browser) before
//     a test is collected.
// Hosts pass the SSRF rule of sendHttpRequest (src/security/network/ssrf.ts) unless
// --allow-private-http; a `-p` that loads a plugin is refused wherever it is written (`-p no:x`,
// which turns one off, is fine). Files the tool reads above the workspace are the user's own.
import { dirname, isInside, join } from "../../lib/paths/posix-path.ts";
import { hostBlockReason } from "../network/ssrf.ts";
import type { ArgumentPlace } from "./argument-paths.ts";
import { npmCommand } from "./rules/npm-commands.ts";
import { urlHost } from "./rules/url-host.ts";

/** command-policy.ts's Refusal, restated: that file imports the rules that import this one. */
export interface Refusal {
  why: string;
  suggestion: string;
}

export interface ProjectConfigDeps {
  /** A workspace file's text, or undefined when it cannot be read (absent). */
  readText(path: string): Promise<string | undefined>;
  resolveHost(host: string): Promise<string[]>;
  /** --allow-private-http: private and loopback hosts are allowed too. */
  allowPrivate: boolean;
}

/** .npmrc keys naming a program or code npm runs (for scripts, git dependencies, `npm edit`...). */
const NPM_PROGRAM_KEYS = /^(git|script-shell|shell|node-options|editor|browser|viewer|onload-script|node-gyp)$/;
/** .npmrc keys only pnpm reads that name code it loads (its hooks file). */
const PNPM_PROGRAM_KEYS = /^(global-)?pnpmfile$/;
/** .npmrc keys naming a host npm connects to. */
const NPM_HOST_KEYS = /(^|:)registry$|^(https-)?proxy$/;
/** pytest's short options that take a value, so the letters after them in a cluster are that value. */
const PYTEST_VALUE_LETTERS = "kmcoWrnp";

export async function checkProjectConfig(
  line: { command: string; args: readonly string[]; place: ArgumentPlace },
  deps: ProjectConfigDeps,
): Promise<Refusal | undefined> {
  const { command, place } = line;
  const dirs = workspaceDirs(place);
  if (command === "pytest") return pytestConfig(dirs, deps);
  if (command === "npm") return npmConfig(dirs, { ...deps, command, hosts: !offlineNpm(line.args) });
  if (command === "pnpm") return npmConfig(dirs, { ...deps, command, hosts: !OFFLINE_PNPM.has(line.args[0] ?? "") });
  if (command === "cargo") return cargoConfig(dirs, deps);
  if (command === "yarn") return yarnConfig(dirs, deps);
  return undefined;
}

/** The plugin modules `-p` loads in these arguments (`-p name`, `-pname`, in a cluster), `no:` ones left out. */
export function pytestPlugins(args: readonly string[]): string[] {
  const found: string[] = [];
  for (const [i, arg] of args.entries()) {
    if (arg === "--") break;
    if (!arg.startsWith("-") || arg.startsWith("--")) continue;
    for (let j = 1; j < arg.length; j++) {
      const letter = arg[j] as string;
      if (!PYTEST_VALUE_LETTERS.includes(letter)) continue;
      if (letter === "p") {
        const value = j + 1 < arg.length ? arg.slice(j + 1) : (args[i + 1] ?? "");
        if (!value.startsWith("no:")) found.push(value);
      }
      break;
    }
  }
  return found;
}

export function pluginRefusal(plugins: readonly string[], where: string): Refusal | undefined {
  if (plugins.length === 0) return undefined;
  return {
    why: `pytest's \`-p ${plugins[0]?.slice(0, 100)}\` (${where}) imports that module, any installed one, before a test runs`,
    suggestion:
      "Name the plugin in the project's conftest.py (pytest_plugins), which is the project's own code, or run pytest without -p; `-p no:name` (turning a plugin off) is fine.",
  };
}

/** The command's directory and its parents, up to the workspace folder it is in. */
function workspaceDirs(place: ArgumentPlace): string[] {
  const folder = place.folders.find((f) => isInside(place.cwd, f));
  if (folder === undefined) return [place.cwd];
  const dirs: string[] = [];
  for (let dir = place.cwd; isInside(dir, folder); dir = dirname(dir)) {
    dirs.push(dir);
    if (dir === folder) break;
  }
  return dirs;
}

async function pytestConfig(dirs: readonly string[], deps: ProjectConfigDeps): Promise<Refusal | undefined> {
  for (const dir of dirs) {
    for (const name of ["pytest.ini", "pyproject.toml", "tox.ini", "setup.cfg"]) {
      const text = await deps.readText(join(dir, name));
      if (text === undefined) continue;
      for (const value of addoptsValues(text)) {
        const refusal = pluginRefusal(pytestPlugins(tokens(value)), `in the addopts of ${join(dir, name)}`);
        if (refusal !== undefined) return refusal;
      }
    }
  }
  return undefined;
}

/** Every `addopts = ...` value, with an ini file's indented continuation lines and a TOML list. */
function addoptsValues(text: string): string[] {
  const values: string[] = [];
  const pattern = /^[ \t]*addopts[ \t]*=[ \t]*(.*(?:\r?\n[ \t]+\S.*)*)/gm;
  for (const m of text.matchAll(pattern)) {
    let value = m[1] ?? "";
    // A TOML list may run over several lines that are not indented.
    if (value.trim().startsWith("[") && !value.includes("]")) {
      const start = (m.index ?? 0) + m[0].length;
      const end = text.indexOf("]", start);
      value += text.slice(start, end === -1 ? undefined : end + 1);
    }
    values.push(value);
  }
  return values;
}

/** Shell-like words of an option string, quotes, commas and brackets of a TOML list removed. */
function tokens(value: string): string[] {
  return (value.match(/"[^"]*"|'[^']*'|[^\s,[\]"']+/g) ?? []).map((t) => t.replace(/^["']|["']$/g, "")).filter((t) => t !== "");
}

/**
 * npm commands that never reach a registry (a project's scripts, its package.json), when the
 * command is the first argument: an option before it could take the next word as its value.
 */
const OFFLINE_NPM = new Set(["run", "run-script", "test", "start", "stop", "restart", "pkg", "ls", "prefix", "root", "help", "explain"]);

/** The same for pnpm, whose commands have no aliases to resolve. */
const OFFLINE_PNPM = new Set(["run", "run-script", "test", "start", "stop", "restart", "ls", "list", "root", "bin", "help", "why"]);

function offlineNpm(args: readonly string[]): boolean {
  const first = args[0];
  return first !== undefined && OFFLINE_NPM.has(npmCommand(first) ?? "");
}

async function npmConfig(
  dirs: readonly string[],
  deps: ProjectConfigDeps & { command: "npm" | "pnpm"; hosts: boolean },
): Promise<Refusal | undefined> {
  const { command } = deps;
  for (const dir of dirs) {
    const file = join(dir, ".npmrc");
    const text = await deps.readText(file);
    if (text === undefined) continue;
    for (const raw of text.split(/\r?\n/)) {
      const line = raw.trim();
      if (line === "" || line.startsWith("#") || line.startsWith(";")) continue;
      const eq = line.indexOf("=");
      if (eq === -1) continue;
      const key = line.slice(0, eq).trim().toLowerCase().replace(/_/g, "-");
      const value = line.slice(eq + 1).trim();
      if (NPM_PROGRAM_KEYS.test(key) || (command === "pnpm" && PNPM_PROGRAM_KEYS.test(key))) {
        return {
          why: `${file} sets \`${key}\`, a program or code ${command} runs (${value.slice(0, 100)})`,
          suggestion: `Remove \`${key}\` from the project's .npmrc (the user's own ~/.npmrc may set it), then retry.`,
        };
      }
      if (deps.hosts && NPM_HOST_KEYS.test(key)) {
        const refusal = await hostRefusal({ value, file, key, command }, deps);
        if (refusal !== undefined) return refusal;
      }
    }
  }
  return undefined;
}

/** Keys of `.yarnrc.yml` (berry) and `.yarnrc` (classic) naming code yarn runs on every command. */
const YARN_PROGRAM_KEYS = /^(yarnPath|plugins|yarn-path)$/;
/** Keys naming a host yarn connects to (in `npmScopes`/`npmRegistries` entries too). */
const YARN_HOST_KEYS = /^(npmRegistryServer|npmPublishRegistry|httpProxy|httpsProxy|registry|proxy|https-proxy)$/;

async function yarnConfig(dirs: readonly string[], deps: ProjectConfigDeps): Promise<Refusal | undefined> {
  for (const dir of dirs) {
    for (const name of [".yarnrc.yml", ".yarnrc"]) {
      const file = join(dir, name);
      const text = await deps.readText(file);
      if (text === undefined) continue;
      // `key: value` (YAML, at any depth) or classic's `key value` / `"key" "value"`.
      for (const m of text.matchAll(/^[ \t]*["']?([A-Za-z][\w-]*)["']?(?:[ \t]*:[ \t]*|[ \t]+)(.*)$/gm)) {
        const key = m[1] ?? "";
        const value = (m[2] ?? "").trim().replace(/^["']|["']$/g, "");
        if (YARN_PROGRAM_KEYS.test(key)) {
          return {
            why: `${file} sets \`${key}\`, code yarn runs for every command (${value.slice(0, 100) || "a list"})`,
            suggestion: `Remove \`${key}\` from the project's ${name}, or run yarn in your own terminal, where you see which yarn runs.`,
          };
        }
        if (YARN_HOST_KEYS.test(key) && value.includes("://")) {
          const refusal = await hostRefusal({ value, file, key, command: "yarn" }, deps);
          if (refusal !== undefined) return refusal;
        }
      }
    }
  }
  return undefined;
}

async function cargoConfig(dirs: readonly string[], deps: ProjectConfigDeps): Promise<Refusal | undefined> {
  for (const dir of dirs) {
    for (const name of [".cargo/config.toml", ".cargo/config"]) {
      const file = join(dir, name);
      const text = await deps.readText(file);
      if (text === undefined) continue;
      for (const m of text.matchAll(/^[ \t]*([A-Za-z0-9_.-]+)[ \t]*=[ \t]*["']([^"'\n]*)["']/gm)) {
        const key = (m[1] ?? "").toLowerCase();
        const value = m[2] ?? "";
        // An http proxy may be written as host:port, without a scheme.
        const proxy = key.endsWith("proxy") && !value.includes("://") && value !== "" ? `http://${value}` : undefined;
        if (proxy === undefined && !value.includes("://")) continue;
        const refusal = await hostRefusal({ value: proxy ?? value, file, key, command: "cargo" }, deps);
        if (refusal !== undefined) return refusal;
      }
    }
  }
  return undefined;
}

async function hostRefusal(
  found: { value: string; file: string; key: string; command: string },
  deps: ProjectConfigDeps,
): Promise<Refusal | undefined> {
  if (deps.allowPrivate) return undefined;
  const host = urlHost(found.value);
  if (host === undefined) return undefined;
  const why = await hostBlockReason(host, { resolveHost: deps.resolveHost });
  if (why === undefined) return undefined;
  return {
    why: `${found.file} sets \`${found.key}\` to ${found.value.slice(0, 200)}: it makes ${found.command} connect to ${host}, which is refused: ${why}`,
    suggestion:
      "runCommand reaches only public addresses, as sendHttpRequest does (SSRF defence). To use a registry or proxy on this machine or your network, the user must restart the bridge with --allow-private-http.",
  };
}
