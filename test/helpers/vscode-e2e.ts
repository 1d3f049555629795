// The harness of the real-VS-Code e2e files (test/e2e/vscode-*.test.ts): one code-server 4.100.3 (VS
// Code 1.100.3) per test file, with Debian's headless Chromium driven by playwright-core, all installed
// offline by scripts/vscode-e2e-setup.sh (cached) and extension/'s own npm install (shared reference:
// vscode-e2e.md). The bridge runs as a process; `claude-ide-bridge install-extension code-server`
// installs the packaged .vsix into a fresh code-server; the extension finds the bridge from its lock
// file and connects. Each file then talks to it through an MCP client and Claude Code's IDE link.
// Wall time and code-server's start -> "connected" go to test-results/vscode-e2e-timings-<name>.json.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { cp, mkdir, mkdtemp, readdir, readFile, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, expect } from "vitest";
import { IdeLinkClient } from "./ide-link-client.ts";
import { storedZip } from "./zip-stored.ts";
import { BRIDGE_BIN, REPO_ROOT, startBridgeProcess, type BridgeProcess } from "./spawn-bridge.ts";
import type { BrowserContext, Page, Playwright } from "./playwright-types.ts";

const EXTENSION_DIR = join(REPO_ROOT, "extension");
export const ARTIFACTS = join(REPO_ROOT, "test-results");
const SETUP_TIMEOUT_MS = 600_000;
export const CONNECT_TIMEOUT_MS = 240_000;

export interface VSCodeE2EOptions {
  /** Names the file's timings and its temporary directory. */
  name: string;
  /** The workspace: relative path -> text. */
  files: Record<string, string>;
  bridgeArgs?: string[];
  /** More of the bridge's environment, read when the bridge starts (after the file's earlier beforeAll hooks). */
  bridgeEnv?: () => Record<string, string>;
  /** Written to a file the bridge reads with --automation-policy. */
  automationPolicy?: Record<string, unknown>;
  /** Unpacked extension folders (a package.json at their root), installed into this code-server as .vsix files. */
  extraExtensions?: string[];
  /** Set on code-server's process, so on the extension host and what it starts. */
  env?: Record<string, string>;
}

type ToolResult = Awaited<ReturnType<Client["callTool"]>>;

export function textOf(result: ToolResult): string {
  const content = result.content as { type: string; text?: string }[];
  return content.map((c) => c.text ?? "").join("\n");
}

/** How many times waitUntil has asked its condition in this worker (reported in the timings). */
let pollsAsked = 0;

/**
 * Polls `cond` until it holds, failing after `timeoutMs` with `what`. The first polls come 100 ms
 * apart and then at most every 250 ms: each poll is a tool call or a health check through the bridge
 * (and often the extension host), and on a loaded machine a wait of half a minute at a steady 100 ms
 * spent the CPU it was waiting for. A condition met late is seen at most 250 ms late.
 */
export async function waitUntil(what: string, cond: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let intervalMs = 100;
  const asked = (): Promise<boolean> => {
    pollsAsked++;
    return cond().catch(() => false);
  };
  while (!(await asked())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, intervalMs));
    intervalMs = Math.min(250, Math.round(intervalMs * 1.5));
  }
}

/** One code-server with the extension connected to one bridge, for the tests of one file. */
export class VSCodeE2E {
  bridge!: BridgeProcess;
  page!: Page;
  mcp!: Client;
  ide!: IdeLinkClient;
  /** code-server's environment (doctor and install-extension run with it). */
  env!: NodeJS.ProcessEnv;
  readonly timings: Record<string, number> = {};
  private work: string | undefined;
  private codeServer: ChildProcess | undefined;
  private context: BrowserContext | undefined;
  private readonly started = Date.now();
  /** waitUntil's polls before this window started (the worker may have run other files). */
  private readonly pollsBefore = pollsAsked;

  constructor(private readonly opts: VSCodeE2EOptions) {}

  get workspace(): string {
    return this.bridge.workspace;
  }

  async start(): Promise<void> {
    const installDir = run("bash", [join(REPO_ROOT, "scripts", "vscode-e2e-setup.sh")], REPO_ROOT, process.env)
      .trim()
      .split("\n")
      .at(-1) as string;
    await mkdir(ARTIFACTS, { recursive: true });
    this.work = await realpath(await mkdtemp(join(tmpdir(), `vscode-e2e-${this.opts.name}-`)));
    const workspace = join(this.work, "ws");
    for (const [name, text] of Object.entries(this.opts.files)) {
      await mkdir(dirname(join(workspace, name)), { recursive: true });
      await writeFile(join(workspace, name), text);
    }
    const policyArgs: string[] = [];
    if (this.opts.automationPolicy !== undefined) {
      policyArgs.push("--automation-policy", join(this.work, "automation-policy.json"));
      await writeFile(join(this.work, "automation-policy.json"), JSON.stringify(this.opts.automationPolicy));
    }
    this.bridge = await startBridgeProcess({
      workspace,
      args: ["--verbose", ...policyArgs, ...(this.opts.bridgeArgs ?? [])],
      ...(this.opts.bridgeEnv === undefined ? {} : { env: this.opts.bridgeEnv() }),
    });

    // A fresh code-server: its own user data, extensions and config (its default directories under
    // this XDG_DATA_HOME); the packaged .vsix installed by the bridge's own install-extension, which
    // finds code-server on PATH as a user's shell would.
    const bin = join(this.work, "bin");
    await mkdir(bin);
    await symlink(join(installDir, "node_modules", ".bin", "code-server"), join(bin, "code-server"));
    this.env = {
      ...process.env,
      PATH: `${bin}:${process.env.PATH ?? ""}`,
      XDG_CONFIG_HOME: join(this.work, "xdg"),
      XDG_DATA_HOME: join(this.work, "data"),
      CLAUDE_CONFIG_DIR: this.bridge.configDir,
      ...this.opts.env,
    };
    const packageStart = Date.now();
    const installed = packageAndInstall(workspace, this.env);
    this.timings.packageAndInstallMs = Date.now() - packageStart;
    expect(installed).toMatch(/^Installed claude-ide-bridge\.claude-ide-bridge-vscode with .*code-server\./);
    const codeServerData = join(this.work, "data", "code-server");
    for (const folder of this.opts.extraExtensions ?? []) await this.installExtension(folder);
    await mkdir(join(codeServerData, "User"), { recursive: true });
    await writeFile(join(codeServerData, "User", "settings.json"), JSON.stringify(USER_SETTINGS));
    const port = await freePort();
    const csStart = Date.now();
    this.codeServer = spawn(
      "code-server",
      ["--auth", "none", "--bind-addr", `127.0.0.1:${port}`, "--disable-telemetry", "--disable-update-check", "--disable-workspace-trust"],
      { env: this.env, detached: true, stdio: ["ignore", "ignore", "ignore"] },
    );
    await waitUntil(
      "code-server /healthz",
      async () => (await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => undefined))?.ok === true,
      30_000,
    );

    const pw = createRequire(join(EXTENSION_DIR, "package.json"))("playwright-core") as Playwright;
    this.context = await pw.chromium.launchPersistentContext(join(this.work, "profile"), {
      executablePath: "/usr/bin/chromium",
      headless: true,
      viewport: { width: 1400, height: 900 },
      // VS Code in a browser reaches the clipboard through the page (readClipboard, writeClipboard).
      permissions: ["clipboard-read", "clipboard-write"],
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    });
    this.page = this.context.pages()[0] ?? (await this.context.newPage());
    await this.page.goto(`http://127.0.0.1:${port}/?folder=${encodeURIComponent(workspace)}`, {
      waitUntil: "domcontentloaded",
      timeout: CONNECT_TIMEOUT_MS,
    });
    await this.page.waitForSelector(".monaco-workbench", { timeout: CONNECT_TIMEOUT_MS });
    await waitUntil("the extension to connect", async () => (await this.health()).extension?.state === "connected", CONNECT_TIMEOUT_MS);
    this.timings.codeServerStartToConnectedMs = Date.now() - csStart;

    this.mcp = (await this.connectMcp(this.opts.name)).client;
    this.ide = await IdeLinkClient.open(this.bridge);
  }

  /**
   * Installs an unpacked extension folder (a package.json at its root) as a user installs a .vsix,
   * with code-server's CLI (a folder copied beside the installed ones is not picked up once
   * code-server's extensions.json lists them). Before the start, or while code-server runs: a window
   * opened or reloaded afterwards has it.
   */
  async installExtension(folder: string): Promise<void> {
    const vsix = join(this.work ?? "", `${basename(folder)}.vsix`);
    await writeFile(vsix, await vsixOf(folder));
    run("code-server", ["--install-extension", vsix], this.workspace, this.env);
  }

  async stop(): Promise<void> {
    this.ide?.close();
    await this.mcp?.close().catch(() => undefined);
    for (const p of this.context?.pages() ?? []) await p.close({ runBeforeUnload: true }).catch(() => undefined);
    // A graceful close lets code-server end the extension host at once (vscode-e2e.md section 7);
    // the host's end closes the extension's link, which the bridge reports.
    if (this.bridge !== undefined)
      await waitUntil(
        "the extension host to end",
        async () => (await this.health().catch(() => undefined))?.extension?.state !== "connected",
        10_000,
      ).catch(() => undefined);
    await this.context?.close().catch(() => undefined);
    if (this.codeServer?.pid !== undefined) await killGroup(this.codeServer.pid);
    await this.bridge?.stop();
    const work = this.work;
    // KEEP_VSCODE_E2E=1 keeps the temporary directory and copies code-server's logs (the extension's
    // output channel among them) beside the screenshots.
    if (work !== undefined && process.env.KEEP_VSCODE_E2E !== undefined) {
      await cp(join(work, "data", "code-server", "logs"), join(ARTIFACTS, `vscode-e2e-logs-${this.opts.name}`), {
        recursive: true,
      }).catch(() => undefined);
      console.log(`kept ${work}`);
    } else if (work !== undefined) await rm(work, { recursive: true, force: true });
    this.timings.wallMs = Date.now() - this.started;
    this.timings.waitUntilPolls = pollsAsked - this.pollsBefore;
    // vitest hides a passing test's console; the figures are kept beside the screenshots.
    const file = join(ARTIFACTS, `vscode-e2e-timings-${this.opts.name}.json`);
    await writeFile(file, `${JSON.stringify(this.timings, null, 2)}\n`).catch(() => undefined);
    console.log(`vscode e2e timings (${this.opts.name}): ${JSON.stringify(this.timings)}`);
  }

  /** A new MCP session with the bridge (the tests' own is `mcp`). */
  async connectMcp(name: string): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
    const client = new Client({ name: `e2e-vscode-${name}`, version: "0.0.0" });
    const transport = new StreamableHTTPClientTransport(new URL(this.bridge.mcpUrl), {
      requestInit: { headers: { Authorization: `Bearer ${this.bridge.token}` } },
    });
    await client.connect(transport);
    return { client, transport };
  }

  call(name: string, args: Record<string, unknown> = {}): Promise<ToolResult> {
    return this.mcp.callTool({ name, arguments: args });
  }

  /** A tool's text answer, which must not be an error. */
  async text(name: string, args: Record<string, unknown> = {}): Promise<string> {
    const result = await this.call(name, args);
    expect(result.isError ?? false, textOf(result)).toBe(false);
    return textOf(result);
  }

  /** A tool's structured answer, which must not be an error. */
  // biome-ignore lint/suspicious/noExplicitAny: the e2e reads tool answers loosely
  async data(name: string, args: Record<string, unknown> = {}): Promise<any> {
    const result = await this.call(name, args);
    expect(result.isError ?? false, textOf(result)).toBe(false);
    return result.structuredContent;
  }

  async health(): Promise<{ extension?: { state: string } }> {
    const res = await fetch(`${this.bridge.url}/health`, { headers: { authorization: `Bearer ${this.bridge.token}` } });
    return (await res.json()) as { extension?: { state: string } };
  }

  /** Runs `step`; when it fails, the page is kept as test-results/vscode-<name>.png. */
  async shotOnFailure<T>(name: string, step: () => Promise<T>): Promise<T> {
    try {
      return await step();
    } catch (err) {
      await this.page.screenshot({ path: join(ARTIFACTS, `vscode-${name}.png`) }).catch(() => undefined);
      throw err;
    }
  }

  /** `claude-ide-bridge doctor --json`'s extension checks, run as the user would in the workspace. */
  doctorExtensionChecks(): { area: string; status: string; summary: string }[] {
    const out = run(process.execPath, [BRIDGE_BIN, "doctor", "--json"], this.workspace, this.env, { allowFailure: true });
    const report = JSON.parse(out) as { checks: { area: string; status: string; summary: string }[] };
    return report.checks.filter((c) => c.area === "extension");
  }

  /** The extension host of this file's code-server (its process group), from ps. */
  extensionHostPid(): number | undefined {
    const out = spawnSync("ps", ["-eo", "pid=,pgid=,args="], { encoding: "utf8" }).stdout;
    for (const line of out.split("\n")) {
      const [pid, pgid, ...args] = line.trim().split(/\s+/);
      if (Number(pgid) === this.codeServer?.pid && args.join(" ").includes("--type=extensionHost")) return Number(pid);
    }
    return undefined;
  }
}

/** One VS Code for the file: started before its tests, stopped after them. */
export function useVSCodeE2E(opts: VSCodeE2EOptions): VSCodeE2E {
  const vs = new VSCodeE2E(opts);
  beforeAll(() => vs.start(), SETUP_TIMEOUT_MS);
  afterAll(() => vs.stop(), 60_000);
  return vs;
}

const USER_SETTINGS = {
  "security.workspace.trust.enabled": false,
  "workbench.startupEditor": "none",
  "telemetry.telemetryLevel": "off",
  "extensions.autoCheckUpdates": false,
  "extensions.autoUpdate": false,
  "update.mode": "none",
  "git.enabled": false,
  "typescript.disableAutomaticTypeAcquisition": true,
  "npm.fetchOnlinePackageInfo": false,
  "workbench.enableExperiments": false,
  // bash has VS Code's shell integration (exit codes and output for the terminal tools).
  "terminal.integrated.defaultProfile.linux": "bash",
  // Headless Chromium paints in software on the CPU the tests share: no blinking caret, no
  // animations and no minimap, which no case looks at, keep it from repainting while a case waits.
  "editor.cursorBlinking": "solid",
  "workbench.reduceMotion": "on",
  "editor.minimap.enabled": false,
};

/**
 * Builds extension/claude-ide-bridge.vsix and installs it with the bridge's install-extension. Files
 * run in parallel workers and write the same bundle and .vsix: a lock on the extension folder
 * (flock(1) locks a directory too) makes them take turns, so no install reads a .vsix being written.
 * A .vsix newer than everything it is built from (the extension's sources, the bridge's src/ it
 * imports, the manifests and lock files) is not built again.
 */
function packageAndInstall(workspace: string, env: NodeJS.ProcessEnv): string {
  const inputs = "src ../src package.json package-lock.json build.mjs ../package-lock.json";
  const script = [
    "set -e",
    "[ -e node_modules/@vscode/vsce ] || npm ci --no-audit --no-fund >&2",
    `if [ ! -e claude-ide-bridge.vsix ] || [ -n "$(find ${inputs} -newer claude-ide-bridge.vsix -print -quit)" ]; then npm run package >&2; fi`,
    `cd "$WORKSPACE" && "$NODE" "$BRIDGE_BIN" install-extension code-server`,
  ].join("\n");
  return run("flock", [EXTENSION_DIR, "bash", "-c", script], EXTENSION_DIR, {
    ...env,
    WORKSPACE: workspace,
    NODE: process.execPath,
    BRIDGE_BIN,
  });
}

function run(cmd: string, args: string[], cwd: string, runEnv: NodeJS.ProcessEnv, opts: { allowFailure?: boolean } = {}): string {
  const out = spawnSync(cmd, args, { cwd, env: runEnv, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], timeout: SETUP_TIMEOUT_MS });
  // doctor exits non-zero when a check fails (a checker missing here): its report is still the answer.
  if (out.status !== 0 && !(opts.allowFailure === true && out.stdout !== ""))
    throw new Error(`${cmd} ${args.join(" ")} failed (${out.status}): ${out.stdout}\n${out.stderr}`);
  return out.stdout;
}

/** SIGTERM to the process group; SIGKILL to what is left of it after 5 s. */
async function killGroup(pid: number): Promise<void> {
  // A zombie still answers kill(-pid, 0), and in a container nobody may reap an orphaned one: /proc says what runs.
  const alive = () =>
    readdirSync("/proc").some((name) => {
      const stat = /^\d+$/.test(name) ? procStat(name) : "";
      const [state, , group] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      return stat !== "" && state !== "Z" && Number(group) === pid;
    });
  try {
    process.kill(-pid, "SIGTERM");
  } catch {
    return;
  }
  await waitUntil("code-server's processes to end", async () => !alive(), 5_000).catch(() => undefined);
  if (alive()) process.kill(-pid, "SIGKILL");
}

/** /proc/<pid>/stat, or "" once the process is gone. */
function procStat(pid: string): string {
  try {
    return readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return "";
  }
}

/** A .vsix of an unpacked extension folder (its files at the top level, text only), as vsce lays one out. */
async function vsixOf(folder: string): Promise<Buffer> {
  const manifest = JSON.parse(await readFile(join(folder, "package.json"), "utf8")) as Record<string, string>;
  const files: Record<string, string> = {
    "[Content_Types].xml":
      '<?xml version="1.0" encoding="utf-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
      '<Default Extension=".json" ContentType="application/json"/><Default Extension=".js" ContentType="application/javascript"/>' +
      '<Default Extension=".md" ContentType="text/markdown"/><Default Extension=".vsixmanifest" ContentType="text/xml"/></Types>',
    "extension.vsixmanifest":
      '<?xml version="1.0" encoding="utf-8"?><PackageManifest Version="2.0.0" xmlns="http://schemas.microsoft.com/developer/vsx-schema/2011">' +
      `<Metadata><Identity Language="en-US" Id="${manifest.name}" Version="${manifest.version}" Publisher="${manifest.publisher}"/>` +
      `<DisplayName>${manifest.name}</DisplayName></Metadata><Installation><InstallationTarget Id="Microsoft.VisualStudio.Code"/></Installation>` +
      '<Dependencies/><Assets><Asset Type="Microsoft.VisualStudio.Code.Manifest" Path="extension/package.json" Addressable="true"/></Assets></PackageManifest>',
  };
  for (const name of await readdir(folder)) files[`extension/${name}`] = await readFile(join(folder, name), "utf8");
  return storedZip(files);
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address !== null ? address.port : 0));
    });
  });
}
