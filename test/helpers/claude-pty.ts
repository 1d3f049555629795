// The real Claude Code CLI run interactively in a pseudo-terminal made by util-linux `script`
// (Debian: bsdutils, essential): in print mode Claude Code never looks for an IDE, so `--ide`
// tests need its interactive UI. The environment is minimal and explicit (nothing of the caller's
// Claude, IDE-terminal or CI setup); the config is pre-seeded so no first-run dialog is shown.
// Stopping kills Claude Code and its children first, then `script`, by pid (checked against the
// process's start time, so a reused pid is never signalled).
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { REPO_CLAUDE_BIN } from "./claude-print.ts";

export interface ProcId {
  pid: number;
  /** /proc/<pid>/stat field 22: guards against a reused pid. */
  start: string;
}

function readStat(pid: number): { ppid: number; start: string } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const rest = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return { ppid: Number(rest[1]), start: rest[19] ?? "" };
  } catch {
    return undefined;
  }
}

/** `root` and all its descendants, from /proc. */
export function processTree(root: number): ProcId[] {
  const children = new Map<number, number[]>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const st = readStat(Number(name));
    if (!st) continue;
    children.set(st.ppid, [...(children.get(st.ppid) ?? []), Number(name)]);
  }
  const out: ProcId[] = [];
  const queue = [root];
  while (queue.length > 0) {
    const pid = queue.shift() as number;
    const st = readStat(pid);
    if (!st) continue;
    out.push({ pid, start: st.start });
    queue.push(...(children.get(pid) ?? []));
  }
  return out;
}

export const alive = (p: ProcId): boolean => readStat(p.pid)?.start === p.start;

function signal(p: ProcId, sig: NodeJS.Signals): void {
  if (!alive(p)) return;
  try {
    process.kill(p.pid, sig);
  } catch {
    // already gone
  }
}

async function until(cond: () => boolean, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!cond() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
}

export function shQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

export function stripAnsi(s: string): string {
  return s.replace(/\x1b\][^\x07\x1b]*(\x07|\x1b\\)|\x1b\[[0-9;?<>=]*[ -/]*[@-~]|\x1b[()][0-9A-Za-z]|\x1b[=>78]/g, "");
}

/**
 * Ends what `script` (spawned detached, so it leads its own group) runs: Claude Code and its
 * children first, so that `script` reaps it and exits by itself (-e), then `script`, and its group
 * if it is still there. Killing `script` first would orphan Claude Code.
 */
export async function stopScriptTree(
  scriptPid: number,
  opts: { closeInput(): void; exited: Promise<void>; graceMs: number },
): Promise<void> {
  const procs = processTree(scriptPid);
  const inner = procs.filter((p) => p.pid !== scriptPid);
  for (const p of inner) signal(p, "SIGTERM");
  await until(() => !inner.some(alive), opts.graceMs);
  for (const p of inner) signal(p, "SIGKILL");
  opts.closeInput();
  await until(() => !procs.some(alive), 2_000);
  if (procs.some(alive)) {
    signalGroup(scriptPid, "SIGTERM");
    await until(() => !procs.some(alive), opts.graceMs);
    signalGroup(scriptPid, "SIGKILL");
  }
  await opts.exited;
}

function signalGroup(leader: number, sig: NodeJS.Signals): void {
  try {
    process.kill(-leader, sig);
  } catch {
    // gone
  }
}

export function requirePty(): void {
  if (process.platform !== "linux") throw new Error("Claude Code is driven through /proc and util-linux `script`: Linux only");
  const script = spawnSync("script", ["--version"], { encoding: "utf8" });
  if (script.status !== 0 || !/util-linux/.test(script.stdout ?? ""))
    throw new Error(
      `util-linux \`script\` (Debian package bsdutils) is needed for a pseudo-terminal: ${script.error?.message ?? script.stderr}`,
    );
}

/** A `.claude.json` that skips every first-run dialog (onboarding, folder trust, custom API key). */
export async function seedClaudeConfig(configDir: string, opts: { workspace: string; apiKey: string }): Promise<void> {
  const config = {
    hasCompletedOnboarding: true,
    lastOnboardingVersion: "2.1.197",
    lastReleaseNotesSeen: "2.1.197",
    numStartups: 1,
    theme: "dark",
    autoUpdates: false,
    customApiKeyResponses: { approved: [opts.apiKey.slice(-20)], rejected: [] },
    projects: { [opts.workspace]: { hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true, allowedTools: [] } },
  };
  await writeFile(join(configDir, ".claude.json"), `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
}

export interface ClaudePty {
  /** Everything Claude Code drew, ANSI stripped. */
  screen(): string;
  /** Types into the terminal. */
  type(text: string): void;
  /** Claude Code's --debug log. */
  debugLog(): string;
  stop(): Promise<void>;
}

export function startClaudePty(opts: {
  workspace: string;
  configDir: string;
  home: string;
  apiKey: string;
  baseUrl: string;
  args: readonly string[];
}): ClaudePty {
  // Anything not on loopback (proxies) goes to the discard port, where nothing listens.
  const dead = "http://127.0.0.1:9";
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    LANG: "C.UTF-8",
    TERM: "xterm-256color",
    SHELL: "/bin/sh",
    HOME: opts.home,
    USER: process.env.USER ?? "test",
    TMPDIR: process.env.TMPDIR ?? tmpdir(),
    CLAUDE_CONFIG_DIR: opts.configDir,
    ANTHROPIC_API_KEY: opts.apiKey,
    ANTHROPIC_BASE_URL: opts.baseUrl,
    HTTPS_PROXY: dead,
    HTTP_PROXY: dead,
    NO_PROXY: "127.0.0.1,localhost",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    CLAUDE_CODE_IDE_SKIP_AUTO_INSTALL: "1",
    CLAUDE_CODE_DISABLE_OFFICIAL_MARKETPLACE_AUTOINSTALL: "1",
    DISABLE_AUTOUPDATER: "1",
    DISABLE_TELEMETRY: "1",
    DISABLE_ERROR_REPORTING: "1",
  };
  const command = `stty cols 160 rows 50 2>/dev/null; exec ${[REPO_CLAUDE_BIN, ...opts.args].map(shQuote).join(" ")}`;
  const proc = spawn("script", ["-q", "-e", "-f", "-c", command, "/dev/null"], {
    cwd: opts.workspace,
    env,
    detached: true,
    stdio: ["pipe", "pipe", "pipe"],
  });
  let raw = "";
  proc.stdout?.setEncoding("utf8").on("data", (d: string) => (raw += d));
  proc.stderr?.setEncoding("utf8").on("data", (d: string) => (raw += d));
  proc.stdin?.on("error", () => {});
  const exited = new Promise<void>((resolve) => {
    if (proc.exitCode !== null || proc.signalCode !== null) resolve();
    proc.once("exit", () => resolve());
    proc.once("error", () => resolve());
  });
  const scriptPid = proc.pid;
  return {
    screen: () => stripAnsi(raw).replace(/[ \t]+\n/g, "\n"),
    type: (text) => proc.stdin?.write(text),
    debugLog: () => {
      const latest = join(opts.configDir, "debug", "latest");
      return existsSync(latest) ? readFileSync(latest, "utf8") : "(no debug log)";
    },
    async stop() {
      if (scriptPid === undefined) return;
      await stopScriptTree(scriptPid, { closeInput: () => proc.stdin?.destroy(), exited, graceMs: 5_000 });
    },
  };
}
