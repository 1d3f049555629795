// Claude Code's own IDE discovery accepts the bridge's lock file (reference/protocol.md A1–A3).
//
// The real Claude Code CLI (2.1.197) is started interactively with `--ide` in the bridge's
// workspace, with only the lock file the bridge itself wrote in $CLAUDE_CONFIG_DIR/ide/. It must
// pick that lock (its cwd lies in `workspaceFolders`), dial the bridge's WebSocket with the lock's
// authToken, initialize as `claude-code` and send `ide_connected`.
//
// Why interactive: in print mode (`claude -p … --ide`) 2.1.197 never looks for an IDE; the lock
// scan runs in a hook of the interactive UI. So Claude Code runs in a pseudo-terminal made by
// util-linux `script` (Debian: bsdutils, an essential package), with a pre-seeded config so no
// onboarding, trust or API-key dialog is shown. No prompt is typed, so no model API is needed.
//
// Network: everything Claude Code would send elsewhere (API base URL, HTTP(S) proxy) goes to a
// loopback "black hole" that closes each connection; NO_PROXY keeps only the IDE link direct.
//
// Two runs: (1) the default path, nothing but `--ide`, observed from the bridge (--verbose log,
// /health) and from Claude Code's --debug log; (2) the same discovery, but Claude Code is told
// (CLAUDE_CODE_IDE_HOST_OVERRIDE, documented) to dial 127.0.0.2 instead of 127.0.0.1: there, on
// the lock's port, a logging WebSocket proxy forwards everything to the real bridge and records
// the handshake and every JSON-RPC message. The lock file is never touched by the test.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { WebSocket, WebSocketServer, type RawData } from "ws";
import { processTree, shQuote, stopScriptTree, stripAnsi, type ProcId } from "../helpers/claude-pty.ts";
import { REPO_ROOT, startBridgeProcess, type BridgeProcess } from "../helpers/spawn-bridge.ts";

const CLAUDE_BIN = join(REPO_ROOT, "node_modules", ".bin", "claude");
const FAKE_API_KEY = "sk-ant-fake-ide-discovery-test";
const CONNECT_TIMEOUT_MS = 30_000; // Claude Code itself polls for a lock for 30 s
const STOP_GRACE_MS = 5_000;
const PROXY_HOST = "127.0.0.2";

// ---------------------------------------------------------------- cleanup bookkeeping

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  // Reverse order: Claude Code first, then proxies, then the bridge, then temp dirs.
  while (cleanups.length > 0) {
    const fn = cleanups.pop()!;
    try {
      await fn();
    } catch (err) {
      console.error("cleanup failed:", err);
    }
  }
});

async function tempDir(prefix: string): Promise<string> {
  const dir = await realpath(await mkdtemp(join(tmpdir(), prefix)));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

// ---------------------------------------------------------------- process tree (Linux /proc)

// ---------------------------------------------------------------- helpers

async function waitFor(what: string, cond: () => boolean, timeoutMs: number, diagnostics: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}\n${diagnostics()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A loopback TCP server that closes every connection: the API base URL and proxy of the CLI. */
async function startBlackHole(): Promise<{ port: number }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((sock) => {
    sockets.add(sock);
    sock.on("close", () => sockets.delete(sock));
    sock.on("error", () => {});
    sock.destroy();
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  cleanups.push(async () => {
    for (const s of sockets) s.destroy();
    await new Promise<void>((r) => server.close(() => r()));
  });
  const addr = server.address();
  if (addr === null || typeof addr === "string") throw new Error("black hole: no port");
  return { port: addr.port };
}

function requirePrerequisites(): void {
  if (process.platform !== "linux") throw new Error("this test drives Claude Code through /proc and util-linux `script`: Linux only");
  const version = spawnSync(CLAUDE_BIN, ["--version"], { encoding: "utf8", timeout: 30_000 });
  if (version.status !== 0 || !/\(Claude Code\)/.test(version.stdout ?? "")) {
    throw new Error(
      `Claude Code CLI not usable at ${CLAUDE_BIN}: ${version.error?.message ?? `${version.stdout}${version.stderr}`}\n` +
        "It is the devDependency @anthropic-ai/claude-code; run `npm ci` (its postinstall installs the native binary).",
    );
  }
  const script = spawnSync("script", ["--version"], { encoding: "utf8" });
  if (script.status !== 0 || !/util-linux/.test(script.stdout ?? "")) {
    throw new Error(
      "util-linux `script` is needed to give Claude Code a pseudo-terminal (Debian package bsdutils): " +
        (script.error?.message ?? `${script.stdout}${script.stderr}`),
    );
  }
}

// ---------------------------------------------------------------- Claude Code in a pseudo-terminal

interface ClaudeRun {
  proc: ChildProcess;
  /** Everything Claude Code drew on its terminal, ANSI stripped. */
  screen(): string;
  /** IDE and MCP lines of Claude Code's --debug log. */
  debugIdeLines(): string;
  /** Claude Code and its children (the pty's session), excluding `script` itself. */
  tree(): ProcId[];
  exited: Promise<void>;
}

/** A `.claude.json` that skips every first-run dialog (onboarding, folder trust, custom API key). */
async function seedClaudeConfig(configDir: string, workspace: string): Promise<void> {
  const config = {
    hasCompletedOnboarding: true,
    lastOnboardingVersion: "2.1.197",
    lastReleaseNotesSeen: "2.1.197",
    numStartups: 1,
    theme: "dark",
    autoUpdates: false,
    // Claude Code asks once per custom key; it stores the key's last 20 characters.
    customApiKeyResponses: { approved: [FAKE_API_KEY.slice(-20)], rejected: [] },
    projects: {
      [workspace]: { hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true, allowedTools: [] },
    },
  };
  await writeFile(join(configDir, ".claude.json"), `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
}

function startClaude(opts: {
  workspace: string;
  configDir: string;
  home: string;
  blackHolePort: number;
  extraEnv?: Record<string, string>;
}): ClaudeRun {
  const dead = `http://127.0.0.1:${opts.blackHolePort}`;
  // A minimal, explicit environment: nothing from the caller's Claude, IDE-terminal or CI setup
  // (TERM_PROGRAM=vscode or FORCE_CODE_TERMINAL would make Claude Code demand that the lock's pid
  // be its ancestor; CI=true may change the UI).
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    LANG: "C.UTF-8",
    TERM: "xterm-256color",
    SHELL: "/bin/sh",
    HOME: opts.home,
    USER: process.env.USER ?? "test",
    TMPDIR: process.env.TMPDIR ?? tmpdir(),
    CLAUDE_CONFIG_DIR: opts.configDir,
    ANTHROPIC_API_KEY: FAKE_API_KEY,
    ANTHROPIC_BASE_URL: dead,
    HTTPS_PROXY: dead,
    HTTP_PROXY: dead,
    https_proxy: dead,
    http_proxy: dead,
    NO_PROXY: `127.0.0.1,localhost,${PROXY_HOST}`,
    no_proxy: `127.0.0.1,localhost,${PROXY_HOST}`,
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    CLAUDE_CODE_IDE_SKIP_AUTO_INSTALL: "1",
    CLAUDE_CODE_DISABLE_OFFICIAL_MARKETPLACE_AUTOINSTALL: "1",
    GIT_TERMINAL_PROMPT: "0",
    DISABLE_AUTOUPDATER: "1",
    DISABLE_TELEMETRY: "1",
    DISABLE_ERROR_REPORTING: "1",
    ...opts.extraEnv,
  };
  const command = `stty cols 120 rows 40 2>/dev/null; exec ${shQuote(CLAUDE_BIN)} --ide --debug`;
  // `script` gets its own process group (detached); Claude Code gets the pty's new session.
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
  const run: ClaudeRun = {
    proc,
    exited,
    screen: () =>
      stripAnsi(raw)
        .replace(/[ \t]+\n/g, "\n")
        .replace(/\n{3,}/g, "\n\n"),
    debugIdeLines: () => {
      const latest = join(opts.configDir, "debug", "latest");
      if (!existsSync(latest)) return "(no debug log)";
      return readFileSync(latest, "utf8")
        .split("\n")
        .filter((l) => /MCP server "ide"|\bIDE\b|ide_connected|lockfile|ws-ide|\[ERROR\]/.test(l))
        .join("\n");
    },
    tree: () => (scriptPid === undefined ? [] : processTree(scriptPid).filter((p) => p.pid !== scriptPid)),
  };
  cleanups.push(async () => {
    if (scriptPid === undefined) return;
    await stopScriptTree(scriptPid, { closeInput: () => proc.stdin?.destroy(), exited, graceMs: STOP_GRACE_MS });
  });
  return run;
}

function diagnostics(bridge: BridgeProcess, claude: ClaudeRun, extra = ""): () => string {
  return () =>
    `--- bridge stderr ---\n${bridge.stderr()}\n` +
    `--- Claude Code debug log (IDE lines) ---\n${claude.debugIdeLines()}\n` +
    `--- Claude Code screen (tail) ---\n${claude.screen().slice(-3000)}\n${extra}`;
}

interface Setup {
  bridge: BridgeProcess;
  configDir: string;
  home: string;
  blackHole: { port: number };
  lock: { authToken: string; workspaceFolders: string[]; transport: string; pid: number };
}

async function setup(): Promise<Setup> {
  requirePrerequisites();
  const configDir = await tempDir("claude-ide-cfg-");
  const home = await tempDir("claude-ide-home-");
  const bridge = await startBridgeProcess({ configDir, args: ["--verbose"] });
  cleanups.push(async () => void (await bridge.stop()));
  await seedClaudeConfig(configDir, bridge.workspace);
  const blackHole = await startBlackHole();
  // The lock the bridge wrote (the only one Claude Code can see: its config dir and HOME are ours).
  const lockPath = join(configDir, "ide", `${bridge.port}.lock`);
  const lock = JSON.parse(await readFile(lockPath, "utf8")) as Setup["lock"];
  expect(readdirSync(join(configDir, "ide"))).toEqual([`${bridge.port}.lock`]);
  expect(lock.workspaceFolders).toContain(bridge.workspace);
  expect(lock.transport).toBe("ws");
  return { bridge, configDir, home, blackHole, lock };
}

// ---------------------------------------------------------------- the tests

it("Claude Code (--ide, interactive) finds the bridge's lock file and connects to its WebSocket", async () => {
  const { bridge, configDir, home, blackHole } = await setup();
  const claude = startClaude({ workspace: bridge.workspace, configDir, home, blackHolePort: blackHole.port });
  const diag = diagnostics(bridge, claude);

  await waitFor(
    "the bridge to log a Claude Code WebSocket connection",
    () => bridge.stderr().includes("Claude Code connected over WebSocket"),
    CONNECT_TIMEOUT_MS,
    diag,
  );
  // Claude Code's side: its "ide" MCP server is the bridge (serverInfo from our initialize result).
  await waitFor(
    'Claude Code to log its "ide" server as connected',
    () => /MCP server "ide": Successfully connected \(transport: ws-ide\)/.test(claude.debugIdeLines()),
    CONNECT_TIMEOUT_MS,
    diag,
  );
  expect(claude.debugIdeLines()).toMatch(/MCP server "ide": Connection established with capabilities: .*"name":"claude-ide-bridge"/);
  const res = await fetch(`${bridge.url}/health`, { headers: { authorization: `Bearer ${bridge.token}` } });
  const health = (await res.json()) as { connections: number };
  expect(health.connections, diag()).toBe(1);
  expect(bridge.stderr()).not.toMatch(/WebSocket closed/);
});

it("what arrives: lock token and subprotocol mcp, initialize from claude-code, then ide_connected with Claude Code's pid", async () => {
  const { bridge, configDir, home, blackHole, lock } = await setup();

  // Logging proxy on 127.0.0.2:<lock port>, forwarding to the real bridge on 127.0.0.1:<lock port>.
  interface Handshake {
    url: string | undefined;
    headers: Record<string, string | string[] | undefined>;
  }
  const handshakes: Handshake[] = [];
  const messages: Array<{ from: "claude" | "bridge"; msg: Record<string, unknown> }> = [];
  const proxyErrors: string[] = [];
  const wss = new WebSocketServer({
    host: PROXY_HOST,
    port: bridge.port,
    perMessageDeflate: false,
    handleProtocols: (protocols) => (protocols.has("mcp") ? "mcp" : false),
  });
  await new Promise<void>((resolve, reject) => {
    wss.once("listening", () => resolve());
    wss.once("error", (err) =>
      reject(new Error(`cannot listen on ${PROXY_HOST}:${bridge.port} (Linux routes all of 127/8 to lo): ${String(err)}`)),
    );
  });
  cleanups.push(async () => {
    for (const c of wss.clients) c.terminate();
    await new Promise<void>((r) => wss.close(() => r()));
  });
  wss.on("connection", (client, req) => {
    handshakes.push({ url: req.url, headers: { ...req.headers } });
    const auth = req.headers["x-claude-code-ide-authorization"];
    const protocols = (req.headers["sec-websocket-protocol"] ?? "")
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean);
    const upstream = new WebSocket(`ws://127.0.0.1:${bridge.port}${req.url ?? "/"}`, protocols, {
      headers: typeof auth === "string" ? { "x-claude-code-ide-authorization": auth } : {},
      perMessageDeflate: false,
    });
    const pending: string[] = [];
    const record = (from: "claude" | "bridge", data: RawData): string => {
      const text = data.toString();
      try {
        messages.push({ from, msg: JSON.parse(text) as Record<string, unknown> });
      } catch {
        proxyErrors.push(`${from} sent a non-JSON frame: ${text.slice(0, 200)}`);
      }
      return text;
    };
    client.on("message", (data) => {
      const text = record("claude", data);
      if (upstream.readyState === WebSocket.OPEN) upstream.send(text);
      else pending.push(text);
    });
    upstream.on("open", () => {
      for (const text of pending.splice(0)) upstream.send(text);
    });
    upstream.on("message", (data) => client.send(record("bridge", data)));
    upstream.on("unexpected-response", (_r, res) => {
      proxyErrors.push(`bridge refused the upgrade: HTTP ${res.statusCode}`);
      client.close(1011);
    });
    upstream.on("error", (err) => proxyErrors.push(`upstream: ${String(err)}`));
    client.on("error", (err) => proxyErrors.push(`client: ${String(err)}`));
    upstream.on("close", () => client.readyState === WebSocket.OPEN && client.close());
    client.on("close", () => upstream.readyState === WebSocket.OPEN && upstream.close());
  });

  const claude = startClaude({
    workspace: bridge.workspace,
    configDir,
    home,
    blackHolePort: blackHole.port,
    extraEnv: { CLAUDE_CODE_IDE_HOST_OVERRIDE: PROXY_HOST },
  });
  const fromClaude = (): Array<Record<string, unknown>> => messages.filter((m) => m.from === "claude").map((m) => m.msg);
  const diag = diagnostics(bridge, claude);
  const fullDiag = (): string =>
    `${diag()}--- proxy ---\nhandshakes: ${JSON.stringify(handshakes)}\nerrors: ${proxyErrors.join("; ")}\n` +
    `messages:\n${messages.map((m) => `${m.from}: ${JSON.stringify(m.msg).slice(0, 300)}`).join("\n")}`;

  await waitFor(
    "Claude Code to send ide_connected through the proxy",
    () => fromClaude().some((m) => m.method === "ide_connected"),
    CONNECT_TIMEOUT_MS,
    fullDiag,
  );

  // Handshake: exactly one connection, carrying the lock file's token and asking for `mcp`.
  expect(handshakes, fullDiag()).toHaveLength(1);
  const hs = handshakes[0]!;
  expect(hs.headers["x-claude-code-ide-authorization"]).toBe(lock.authToken);
  expect(hs.headers["sec-websocket-protocol"]).toMatch(/\bmcp\b/);
  expect(hs.headers.origin).toBeUndefined();
  expect(proxyErrors, fullDiag()).toEqual([]);
  expect(bridge.stderr()).toContain("Claude Code connected over WebSocket");

  // Sequence (A3): initialize first, as claude-code; notifications/initialized; ide_connected.
  const sent = fromClaude();
  const init = sent[0]!;
  expect(init.method, fullDiag()).toBe("initialize");
  const initParams = init.params as { protocolVersion: string; clientInfo: { name: string }; capabilities: object };
  expect(initParams.clientInfo.name).toBe("claude-code");
  expect(typeof initParams.protocolVersion).toBe("string");
  const methods = sent.map((m) => m.method);
  const iInitialized = methods.indexOf("notifications/initialized");
  const iConnected = methods.indexOf("ide_connected");
  expect(iInitialized, fullDiag()).toBeGreaterThan(0);
  expect(iConnected).toBeGreaterThan(iInitialized);
  const connected = sent[iConnected]!;
  expect(connected.id).toBeUndefined(); // a notification
  const idePid = (connected.params as { pid: unknown }).pid;
  expect(typeof idePid).toBe("number");
  // The pid is the Claude Code we started (a process inside our pseudo-terminal).
  expect(
    claude.tree().map((p) => p.pid),
    fullDiag(),
  ).toContain(idePid);

  // The real bridge answered the initialize.
  const reply = messages.find((m) => m.from === "bridge" && m.msg.id === init.id)?.msg;
  expect(reply, fullDiag()).toBeDefined();
  expect((reply!.result as { serverInfo: { name: string } }).serverInfo.name).toBe("claude-ide-bridge");
});
