// The fixture bridge of the contract suite: the real CLI under node, bun or deno (runtimes.ts),
// with its own workspace, CLAUDE_CONFIG_DIR and token, on a random port unless one is given
// (a restart reuses its predecessor's port, token and directories).
import { mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makeWorkspace, randomToken } from "../helpers/spawn-bridge.ts";
import { startProcess, type ExitInfo, type Started } from "./process.ts";
import { bridgeCommand, type RuntimeName } from "./runtimes.ts";

const LISTENING = /listening on http:\/\/127\.0\.0\.1:(\d+)/;

export interface FixtureBridge {
  runtime: RuntimeName;
  port: number;
  token: string;
  workspace: string;
  configDir: string;
  lockPath: string;
  url: string;
  wsUrl: string;
  mcpUrl: string;
  process: Started;
  /** SIGTERM (or `signal`), wait for the exit. Temporary directories stay until `cleanup`. */
  stop(signal?: NodeJS.Signals): Promise<ExitInfo>;
  /** Removes the workspace and config dir this fixture made. */
  cleanup(): Promise<void>;
}

export interface FixtureOptions {
  port?: number;
  token?: string;
  workspace?: string;
  configDir?: string;
  args?: string[];
}

export async function startFixtureBridge(runtime: RuntimeName, opts: FixtureOptions = {}): Promise<FixtureBridge> {
  const workspace = opts.workspace ?? (await makeWorkspace());
  const configDir = opts.configDir ?? (await realpath(await mkdtemp(join(tmpdir(), "contract-cfg-"))));
  const token = opts.token ?? randomToken();
  const args = ["--workspace", workspace, "--port", String(opts.port ?? 0), "--fixed-token", token, ...(opts.args ?? [])];
  const proc = await startProcess([...bridgeCommand(runtime), ...args], { ready: LISTENING, env: { CLAUDE_CONFIG_DIR: configDir } });
  const port = Number(proc.ready[1]);
  const url = `http://127.0.0.1:${port}`;
  return {
    runtime,
    port,
    token,
    workspace,
    configDir,
    lockPath: join(configDir, "ide", `${port}.lock`),
    url,
    wsUrl: `ws://127.0.0.1:${port}/`,
    mcpUrl: `${url}/mcp`,
    process: proc,
    stop: (signal) => proc.stop(signal),
    cleanup: async () => {
      if (opts.workspace === undefined) await rm(workspace, { recursive: true, force: true });
      if (opts.configDir === undefined) await rm(configDir, { recursive: true, force: true });
    },
  };
}
