// Starts the real bridge (`node bin/claude-ide-bridge.js`, which runs the compiled dist/) as a
// child process on a free port, with its own temporary workspace, CLAUDE_CONFIG_DIR and token.
// Every started process is tracked, so a test file's afterAll can stop whatever is left.
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const REPO_ROOT = fileURLToPath(new URL("../..", import.meta.url));
export const BRIDGE_BIN = join(REPO_ROOT, "bin", "claude-ide-bridge.js");

// A bridge starts in about a second on a quiet machine; at load 25 one took over 20 s.
const READY_TIMEOUT_MS = 60_000;
const STOP_GRACE_MS = 5_000;
const LISTENING = /listening on http:\/\/127\.0\.0\.1:(\d+)/;

export interface StartBridgeOptions {
  /** Use this workspace (not deleted on stop) instead of a fresh temporary one. */
  workspace?: string;
  /** Use this CLAUDE_CONFIG_DIR (not deleted on stop) instead of a fresh temporary one. */
  configDir?: string;
  /** Extra CLI arguments after the standard ones. */
  args?: string[];
  /** Extra environment for the bridge process. */
  env?: Record<string, string>;
}

export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface BridgeProcess {
  port: number;
  token: string;
  /** Origin, e.g. http://127.0.0.1:1234 (no trailing slash). */
  url: string;
  /** The Streamable HTTP endpoint: `${url}/mcp`. */
  mcpUrl: string;
  /** ws://127.0.0.1:<port>/ */
  wsUrl: string;
  configDir: string;
  workspace: string;
  proc: ChildProcess;
  /** Resolves when the process has exited. */
  exited: Promise<ExitInfo>;
  stderr(): string;
  stdout(): string;
  /** Sends `signal` (default SIGTERM), SIGKILL after 5 s, waits for exit, removes temp dirs. */
  stop(signal?: NodeJS.Signals): Promise<ExitInfo>;
}

const running = new Set<BridgeProcess>();

// Last line of defence: never leave a bridge behind when the test worker exits.
process.once("exit", () => {
  for (const b of running) b.proc.kill("SIGKILL");
});

export function randomToken(): string {
  return randomBytes(24).toString("hex");
}

/** A small workspace: package.json, src/index.ts, README.md. Returns its real path. */
export async function makeWorkspace(): Promise<string> {
  const dir = await realpath(await mkdtemp(join(tmpdir(), "bridge-ws-")));
  await mkdir(join(dir, "src"));
  await writeFile(
    join(dir, "package.json"),
    `${JSON.stringify({ name: "fixture-app", version: "1.2.3", type: "module", scripts: { build: "tsc" } }, null, 2)}\n`,
  );
  await writeFile(join(dir, "src", "index.ts"), "export function greet(name: string): string {\n  return `Hello, ${name}`;\n}\n");
  await writeFile(join(dir, "README.md"), "# Fixture app\n\nA tiny workspace for end-to-end tests.\n");
  return dir;
}

export async function startBridgeProcess(opts: StartBridgeOptions = {}): Promise<BridgeProcess> {
  if (!existsSync(BRIDGE_BIN)) {
    throw new Error(`${BRIDGE_BIN} does not exist: the bridge entry point is missing (run \`npm run build\`).`);
  }
  const ownWorkspace = opts.workspace === undefined;
  const ownConfigDir = opts.configDir === undefined;
  const workspace = opts.workspace ?? (await makeWorkspace());
  const configDir = opts.configDir ?? (await realpath(await mkdtemp(join(tmpdir(), "bridge-cfg-"))));
  const token = randomToken();
  const removeTemp = async (): Promise<void> => {
    if (ownWorkspace) await rm(workspace, { recursive: true, force: true });
    if (ownConfigDir) await rm(configDir, { recursive: true, force: true });
  };

  const proc = spawn(
    process.execPath,
    [BRIDGE_BIN, "--workspace", workspace, "--port", "0", "--fixed-token", token, ...(opts.args ?? [])],
    {
      cwd: REPO_ROOT,
      env: { ...process.env, CLAUDE_CONFIG_DIR: configDir, ...opts.env },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let stderr = "";
  let stdout = "";
  proc.stderr?.setEncoding("utf8").on("data", (d: string) => (stderr += d));
  proc.stdout?.setEncoding("utf8").on("data", (d: string) => (stdout += d));
  const exited = new Promise<ExitInfo>((resolve) => {
    proc.once("exit", (code, signal) => resolve({ code, signal }));
  });
  let exitInfo: ExitInfo | undefined;
  void exited.then((info) => (exitInfo = info));

  let port: number;
  try {
    port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`bridge did not print "listening on" within ${READY_TIMEOUT_MS} ms`)),
        READY_TIMEOUT_MS,
      );
      const onData = (): void => {
        const m = LISTENING.exec(stderr);
        if (m) {
          clearTimeout(timer);
          proc.stderr?.off("data", onData);
          resolve(Number(m[1]));
        }
      };
      proc.stderr?.on("data", onData);
      proc.once("error", (err) => {
        clearTimeout(timer);
        reject(err);
      });
      void exited.then((info) => {
        clearTimeout(timer);
        reject(new Error(`bridge exited before listening (code ${info.code}, signal ${info.signal})`));
      });
    });
  } catch (err) {
    if (exitInfo === undefined) {
      proc.kill("SIGKILL");
      await exited;
    }
    await removeTemp();
    const msg = err instanceof Error ? err.message : String(err);
    throw new Error(`${msg}\n--- bridge stderr ---\n${stderr}\n--- bridge stdout ---\n${stdout}`);
  }

  const bridge: BridgeProcess = {
    port,
    token,
    url: `http://127.0.0.1:${port}`,
    mcpUrl: `http://127.0.0.1:${port}/mcp`,
    wsUrl: `ws://127.0.0.1:${port}/`,
    configDir,
    workspace,
    proc,
    exited,
    stderr: () => stderr,
    stdout: () => stdout,
    async stop(signal: NodeJS.Signals = "SIGTERM"): Promise<ExitInfo> {
      if (exitInfo === undefined) {
        proc.kill(signal);
        const killer = setTimeout(() => proc.kill("SIGKILL"), STOP_GRACE_MS);
        await exited;
        clearTimeout(killer);
      }
      running.delete(bridge);
      await removeTemp();
      return exitInfo ?? (await exited);
    },
  };
  running.add(bridge);
  return bridge;
}

/** Stops every bridge this worker started and has not stopped yet. */
export async function stopAllBridges(): Promise<void> {
  await Promise.all([...running].map((b) => b.stop()));
}
