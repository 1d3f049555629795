// doctor's checks of what tools run: git, rg and gh on PATH (with their versions), and the
// language servers found on PATH or in the project's node_modules/.bin, each started and asked
// to initialize (lsp-probe.ts). A tool that is missing is worth knowing (·); one that is there
// but does not answer is broken (✗).
import type { Runtime } from "../runtime.ts";
import { join } from "../security/posix-path.ts";
import type { Check } from "./doctor-report.ts";
import { probeLanguageServer } from "./lsp-probe.ts";

const VERSION_TIMEOUT_MS = 3_000;
export const LSP_TIMEOUT_MS = 5_000;

const TOOLS: ReadonlyArray<{ cmd: string; needFor: string }> = [
  { cmd: "git", needFor: "the git tools (status, diff, log, commit…)" },
  { cmd: "rg", needFor: "fast text search (ripgrep)" },
  { cmd: "gh", needFor: "the GitHub tools (pull requests, issues)" },
];

interface LanguageServer {
  cmd: string;
  args: string[];
  install: string;
  /** A found executable that is not a language server in this version (tsc before 7): why not. */
  unsupported?(version: string): string | undefined;
}

const LANGUAGE_SERVERS: readonly LanguageServer[] = [
  { cmd: "typescript-language-server", args: ["--stdio"], install: "npm i -D typescript-language-server typescript" },
  { cmd: "tsgo", args: ["--lsp", "--stdio"], install: "npm i -D @typescript/native-preview" },
  {
    cmd: "tsc",
    args: ["--lsp", "--stdio"],
    install: "npm i -D typescript@7",
    unsupported: (version) => (Number(/(\d+)\./.exec(version)?.[1]) >= 7 ? undefined : `${version} has no --lsp (TypeScript 7 does)`),
  },
  { cmd: "pyright-langserver", args: ["--stdio"], install: "npm i -g pyright (or pip install pyright)" },
  { cmd: "gopls", args: [], install: "go install golang.org/x/tools/gopls@latest" },
  { cmd: "clangd", args: [], install: "apt install clangd (or your platform's package)" },
  { cmd: "rust-analyzer", args: [], install: "rustup component add rust-analyzer" },
];

export async function toolChecks(runtime: Runtime, cwd: string): Promise<Check[]> {
  return Promise.all(
    TOOLS.map(async ({ cmd, needFor }): Promise<Check> => {
      const path = await runtime.which(cmd);
      if (path === undefined) return { area: "tool", status: "info", summary: `${cmd} not found on PATH; needed for ${needFor}`, fix: `install ${cmd}` };
      const version = (await firstLine(runtime, path, ["--version"], cwd)) ?? "";
      // "git version 2.39.5", "ripgrep 13.0.0": without the name again.
      return { area: "tool", status: "ok", summary: `${cmd} ${version.replace(/^(git|ripgrep|gh)\s+(version\s+)?/, "")} (${path})`.replace("  ", " ") };
    }),
  );
}

export async function languageServerChecks(runtime: Runtime, opts: { root: string; cwd: string }): Promise<Check[]> {
  const binDirs = [...new Set([opts.cwd, opts.root])].map((d) => join(d, "node_modules", ".bin"));
  return Promise.all(
    LANGUAGE_SERVERS.map(async (server): Promise<Check> => {
      const path = await findExecutable(runtime, server.cmd, binDirs);
      if (path === undefined) return { area: "language server", status: "info", summary: `${server.cmd} not found (PATH, node_modules/.bin)`, fix: server.install };
      if (server.unsupported) {
        const why = server.unsupported((await firstLine(runtime, path, ["--version"], opts.root)) ?? "");
        if (why !== undefined) return { area: "language server", status: "info", summary: `${server.cmd} ${why} (${path})` };
      }
      const probe = await probeLanguageServer(runtime, { cmd: path, args: server.args }, { cwd: opts.root, timeoutMs: LSP_TIMEOUT_MS });
      if (probe.ok) return { area: "language server", status: "ok", summary: `${server.cmd} answers initialize in ${probe.ms} ms${probe.server ? ` (${probe.server})` : ""} (${path})` };
      return { area: "language server", status: "fail", summary: `${server.cmd} at ${path}: ${probe.why}`, fix: `reinstall it (${server.install}), or run \`${path} ${server.args.join(" ")}\` to see why` };
    }),
  );
}

/** The project's node_modules/.bin first (what the project pins), then PATH. */
async function findExecutable(runtime: Runtime, cmd: string, binDirs: readonly string[]): Promise<string | undefined> {
  for (const dir of binDirs) {
    const path = join(dir, cmd);
    if ((await runtime.fs.stat(path).catch(() => undefined))?.isFile) return path;
  }
  return runtime.which(cmd);
}

/** The first line a command prints, or undefined when it fails or takes too long. */
async function firstLine(runtime: Runtime, cmd: string, args: string[], cwd: string): Promise<string | undefined> {
  try {
    const child = runtime.spawn(cmd, args, { cwd, signal: AbortSignal.timeout(VERSION_TIMEOUT_MS) });
    const [text, code] = await Promise.all([new Response(child.stdout).text(), child.exited, new Response(child.stderr).text()]);
    return code === 0 ? text.trim().split("\n")[0]?.trim() : undefined;
  } catch {
    return undefined;
  }
}
