// doctor's language-server checks: exactly the servers src/lsp would use for the project — the
// configured ones (the config file's "lsp" key) and the built-ins, found by the same lookup
// (bundled, the project's node_modules/.bin, PATH: src/lsp/command-resolver.ts) — each started
// through the Runtime port's LspConnection (vscode-jsonrpc framing) with the initialize the bridge
// sends, given LSP_TIMEOUT_MS to answer, then told to shut down and killed with its process group. Only servers for the
// languages the project has are started (project-languages.ts), as the bridge would. "Found" is not
// "working": one that is there but does not answer is broken (✗); one not installed is info (·).
import type { InitializeResult } from "vscode-languageserver-protocol";
import { childEnvironment } from "../security/commands/child-env.ts";
import { initializeParams } from "../lsp/client-capabilities.ts";
import { describeLanguageServers } from "../lsp/lsp-health.ts";
import { createCommandResolver, type ResolvedCommand } from "../lsp/command-resolver.ts";
import { displayName } from "../lsp/language-server.ts";
import { initializationOptionsFor } from "../lsp/launch-options.ts";
import { BUILT_IN_SERVERS, type ServerSpec } from "../lsp/server-specs.ts";
import { LspRequestError, type LspConnection } from "../ports/lsp.ts";
import type { Runtime } from "../ports/runtime.ts";
import type { Check } from "./doctor-report.ts";
import { projectLanguages } from "./project-languages.ts";

/**
 * The servers of the project's languages start together; on a busy two-core machine
 * bash-language-server alone took 4.8 s to answer, so a slow answer is not taken for a broken one.
 */
const LSP_TIMEOUT_MS = 15_000;
/** The first lines of a dying server's stderr say what went wrong; a backtrace below them does not. */
const STDERR_LINES = 2;
const STDERR_CHARS = 500;
const ERROR_CHARS = 600;
const EXIT_WAIT_MS = 1_000;

const ON_PATH_INSTALL: Readonly<Record<string, string>> = {
  gopls: "go install golang.org/x/tools/gopls@latest",
  clangd: "apt install clangd (or your platform's package)",
};

/** `configured` first, as src/lsp orders them (they claim their language ahead of the built-ins). */
export async function languageServerChecks(runtime: Runtime, opts: { root: string; configured: readonly ServerSpec[] }): Promise<Check[]> {
  const resolve = createCommandResolver({ launcher: runtime.languageServers, which: (cmd) => runtime.which(cmd), fs: runtime.fs });
  const here = await projectLanguages(runtime.fs, { root: opts.root, configured: opts.configured });
  const manifest = (await runtime.fs.stat(`${opts.root}/package.json`).catch(() => undefined))?.isFile === true;
  const install = (spec: ServerSpec) => installHint(spec, { root: opts.root, manifest });
  return Promise.all(
    [...opts.configured, ...BUILT_IN_SERVERS].map(async (spec): Promise<Check> => {
      const found = await resolve(spec, opts.root);
      const languages = spec.languages.join(", ");
      if (found === undefined)
        return { area: "language server", status: "info", summary: `${spec.id} (${languages}) not installed`, fix: install(spec) };
      const where = `${found.from}: ${found.command}`;
      // Starting every server would make doctor slow; the bridge starts only those of the project's files.
      if (!spec.languages.some((l) => here.has(l)))
        return { area: "language server", status: "info", summary: `${spec.id} found, not started: no ${languages} files here (${where})` };
      const answer = await probeServer(runtime, spec, found, opts.root);
      if (answer.ok)
        return {
          area: "language server",
          status: "ok",
          summary: `${spec.id} answers initialize in ${answer.ms} ms${answer.server ? ` (${answer.server})` : ""} (${where})`,
        };
      return {
        area: "language server",
        status: "fail",
        summary: `${spec.id} (${where}): ${answer.why}`,
        fix: failureFix(spec, { found, why: answer.why, install: install(spec) }),
      };
    }),
  );
}

type Probe = { ok: true; ms: number; server: string | undefined } | { ok: false; why: string };

async function probeServer(runtime: Runtime, spec: ServerSpec, found: ResolvedCommand, root: string): Promise<Probe> {
  const started = Date.now();
  // A timer of our own, not AbortSignal.timeout: language servers run in their own process group,
  // unref'd (src/ports/spawn.ts), and AbortSignal.timeout's timer is unref'd too, so in a short-lived
  // command nothing else would keep the event loop alive while the server starts.
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), LSP_TIMEOUT_MS);
  let connection: LspConnection;
  let answered = false;
  try {
    connection = runtime.languageServers.start(found.command, [...spec.args], { cwd: root, env: childEnvironment(runtime.env, undefined) });
  } catch (err) {
    clearTimeout(timer);
    return { ok: false, why: `could not start: ${err instanceof Error ? err.message : String(err)}` };
  }
  try {
    const initializationOptions = await initializationOptionsFor(spec, root, { launcher: runtime.languageServers, fs: runtime.fs });
    const params = initializeParams({
      root,
      processId: runtime.pid,
      initializationOptions,
      pushDiagnosticsOnly: spec.pushDiagnosticsOnly === true,
    });
    const result = (await connection.request("initialize", params, deadline.signal)) as InitializeResult;
    answered = true;
    return { ok: true, ms: Date.now() - started, server: result.serverInfo === undefined ? undefined : displayName(result.serverInfo) };
  } catch (err) {
    // A dying server's exit code (and the end of its stderr) says more than the closed pipe or the
    // failed write (EPIPE, -32099), and comes a moment later.
    const timedOut = err instanceof LspRequestError && err.code === -32800;
    const code = timedOut ? undefined : await exitCode(connection.exited);
    const why = code === undefined ? failure(err) : `exited with code ${code} before answering initialize`;
    const said = connection
      .stderrTail()
      .split("\n")
      .map((l) => l.trim())
      .filter((l) => l !== "")
      .slice(0, STDERR_LINES)
      .join(" | ")
      .slice(0, STDERR_CHARS);
    return { ok: false, why: said ? `${why}: ${said}` : why };
  } finally {
    clearTimeout(timer);
    // Closing kills the server and waits for its exit. The child and its pipes are unref'd, so
    // only a timer of ours keeps this short-lived command's event loop alive until that exit is
    // seen: without one, Node ended doctor with the close pending (exit code 13, no report).
    // Told to shut down, a server removes what it made (pyright its folder in the temp dir); killed, it leaves it.
    if (answered) await exitCode(shutDown(connection));
    await exitCode(connection.close().then(() => 0));
  }
}

/** shutdown, exit, and its exit code; 0 when it does not answer (the kill after it ends it). */
async function shutDown(connection: LspConnection): Promise<number> {
  try {
    await connection.request("shutdown", null);
    await connection.notify("exit", null);
    return await connection.exited;
  } catch {
    return 0;
  }
}

/** `exited`'s code, or undefined after EXIT_WAIT_MS; the wait's timer keeps the process alive. */
async function exitCode(exited: Promise<number>): Promise<number | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<undefined>((resolve) => (timer = setTimeout(resolve, EXIT_WAIT_MS, undefined)));
  try {
    return await Promise.race([exited, late]);
  } finally {
    clearTimeout(timer);
  }
}

function failure(err: unknown): string {
  if (!(err instanceof LspRequestError)) return err instanceof Error ? err.message : String(err);
  if (err.code === -32800) return `no answer to initialize within ${LSP_TIMEOUT_MS / 1000} s`;
  if (err.code === "closed") return err.message.replace(/^initialize: /, "");
  return `answered initialize with error ${err.code}: ${sentences(err.message.replace(/^initialize: /, ""), ERROR_CHARS)}`;
}

/** Whole sentences up to `max` characters: a message cut mid-sentence loses the part that says what to do. */
function sentences(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const end = Math.max(cut.lastIndexOf(". "), cut.lastIndexOf(".\n"));
  return end > 0 ? `${cut.slice(0, end + 1)} …` : `${cut}…`;
}

/**
 * What to do about a server that is installed but does not answer: installing it again would not
 * help. typescript-language-server runs on a TypeScript 5 or 6 install (the project's, else the
 * bridge's own `typescript` dependency), and says "Could not find a valid TypeScript installation"
 * without one.
 */
function failureFix(spec: ServerSpec, o: { found: ResolvedCommand; why: string; install: string }): string {
  const { found, why } = o;
  const see = `run \`${[found.command, ...spec.args].join(" ")}\` in the project to see why`;
  if (spec.tsserver !== undefined && /TypeScript/i.test(why))
    return `npm i -D typescript@5 in the project (it needs a TypeScript 5 or 6 with lib/tsserver.js; reinstalling claude-ide-bridge brings its own), or ${see}`;
  if (spec.id.startsWith("config:")) return `${o.install}; ${see}`;
  return see;
}

/**
 * A command that makes the bridge find the server: the project's node_modules/.bin is where it
 * looks (besides its own copy and PATH), so `npm i -D` in the project root when that has a
 * package.json; without one npm would install into a parent directory, so a global install (PATH).
 */
function installHint(spec: ServerSpec, where: { root: string; manifest: boolean }): string {
  if (spec.id.startsWith("config:")) return `check "lsp.${spec.id.slice("config:".length)}.command" in the config file`;
  const bundled = spec.command.find((c) => "bundled" in c);
  if (bundled === undefined) return ON_PATH_INSTALL[spec.id] ?? `install ${spec.id} on PATH`;
  // tsgo's bundled package is per platform; the one to install is its umbrella package.
  const pkg = bundled.bundled.package.includes("{platform}") ? "@typescript/native-preview" : bundled.bundled.package;
  return where.manifest ? `npm i -D ${pkg}   (in ${where.root})` : `npm i -g ${pkg}   (${where.root} has no package.json)`;
}

/**
 * The running bridge's language servers, from its /health: each one's state and resident memory
 * (with the processes it started), and the pool's total against its caps, warned when near the
 * memory cap (the next server to start then stops the least recently used one).
 */
export function runningServerChecks(health: Record<string, unknown>, opts: { cli: string }): Check[] {
  const described = describeLanguageServers(health.languageServers);
  if (described === undefined) return [];
  const pool: Check = described.nearCap
    ? {
        area: "language servers",
        status: "warn",
        summary: `${described.pool}: near the memory cap, the least recently used server is stopped when another starts`,
        fix: `start the bridge with a larger --lsp-memory-mb, or fewer workspaces per bridge (${opts.cli} status lists them)`,
      }
    : { area: "language servers", status: "ok", summary: described.pool };
  return [
    pool,
    ...described.servers.map((summary): Check => ({ area: "language server", status: "info", summary: `running: ${summary}` })),
  ];
}
