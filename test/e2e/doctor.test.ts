// `claude-ide-bridge doctor` on a real project: a running bridge (healthy, token
// accepted), its lock and port, git and rg, the language servers src/lsp would use for the
// project's files (the bundled typescript-language-server and tsgo answering initialize; pyright
// found but not started, there being no Python here), and Claude Code's config running the shim;
// then what it says when things are broken: a server named "ide", a config whose command does not
// exist, a configured language server that dies, a lock directory others can read; and each entry
// tried as Claude Code would: HTTP and WebSocket entries whose token the bridge no longer takes, a
// port where nothing runs, a shim entry whose workspace does not exist, one that needs a variable
// that is unset. PATH is pinned, so the machine's own tools do not count.
import { execFile } from "node:child_process";
import { chmod, mkdir, mkdtemp, readdir, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createServer } from "node:net";
import { BRIDGE_BIN, randomToken, REPO_ROOT, type BridgeProcess } from "../helpers/spawn-bridge.ts";
import { bridgeOn, makeHome } from "./shim-support.ts";

let home: Awaited<ReturnType<typeof makeHome>>;
let userHome: string;
let bin: string;
let bridge: BridgeProcess;

beforeAll(async () => {
  home = await makeHome();
  userHome = await realpath(await mkdtemp(join(tmpdir(), "doctor-home-")));
  bin = join(userHome, "bin");
  await mkdir(bin);
  for (const tool of ["node", "git", "rg"]) {
    const path = await which(tool);
    if (path) await symlink(path, join(bin, tool));
  }
  bridge = await bridgeOn(home);
});
afterAll(async () => {
  await bridge?.stop();
  await home?.remove();
  if (userHome) await rm(userHome, { recursive: true, force: true });
});

function which(cmd: string): Promise<string | undefined> {
  return new Promise((resolve) => execFile("sh", ["-c", `command -v ${cmd}`], (err, out) => resolve(err ? undefined : out.trim())));
}

interface Doctor {
  code: number;
  report: { ok: boolean; checks: Array<{ area: string; status: string; summary: string; fix?: string }> };
}

function doctor(env: Record<string, string> = {}): Promise<Doctor> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BRIDGE_BIN, "doctor", "--json"],
      // TMPDIR: the run's own (test/temp-dir.ts); without it typescript-language-server, which doctor
      // starts, leaves two empty directories in /tmp per run.
      { cwd: home.workspace, env: { PATH: bin, HOME: userHome, CLAUDE_CONFIG_DIR: home.configDir, TMPDIR: tmpdir(), ...env } },
      (err, stdout) => resolve({ code: err ? Number(err.code ?? 1) : 0, report: JSON.parse(stdout) as Doctor["report"] }),
    );
  });
}

const find = (d: Doctor, area: string, text: string) => d.report.checks.find((c) => c.area === area && c.summary.includes(text));

it("all good: the bridge answers with its token, the language server answers initialize, Claude Code runs the shim", async () => {
  await writeFile(
    join(home.workspace, ".mcp.json"),
    JSON.stringify({ mcpServers: { "claude-ide-bridge": { type: "stdio", command: "node", args: [BRIDGE_BIN, "shim"] } } }),
  );
  const d = await doctor();
  const failed = d.report.checks.filter((c) => c.status === "fail");
  expect(failed, JSON.stringify(d.report.checks, null, 2)).toEqual([]);
  expect(d.code).toBe(0);
  expect(find(d, "runtime", `node ${process.versions.node}`)?.status).toBe("ok");
  expect(find(d, "bridge", `port ${bridge.port}`)?.summary).toMatch(/healthy, token accepted/);
  expect(find(d, "lock", `${bridge.port}.lock`)?.summary).toMatch(/mode 600, fields complete/);
  expect(find(d, "port", `${bridge.port} answers`)?.status).toBe("ok");
  expect(find(d, "tool", "git")?.status).toBe("ok");
  expect(find(d, "tool", "gh not found")).toMatchObject({ status: "info", fix: "install gh" });
  expect(find(d, "language server", "typescript-language-server answers initialize")).toMatchObject({
    status: "ok",
    summary: expect.stringContaining(`(bundled: ${join(REPO_ROOT, "node_modules", "typescript-language-server")}/`),
  });
  expect(find(d, "language server", "tsgo answers initialize")?.status).toBe("ok");
  expect(find(d, "language server", "pyright found, not started: no python files here")?.status).toBe("info");
  // Started as Claude Code starts it, and asked for its tools through the running bridge.
  expect(find(d, "claude config", "mcpServers.claude-ide-bridge")).toMatchObject({
    status: "ok",
    summary: expect.stringMatching(/: connects \(claude-ide-bridge \S+, \d+ tools\)$/),
  });
  expect(JSON.stringify(d.report)).not.toContain(bridge.token);
});

it("says what is broken and how to fix it, and exits 1", async () => {
  await writeFile(
    join(home.workspace, ".mcp.json"),
    JSON.stringify({
      mcpServers: { ide: { command: "node", args: [BRIDGE_BIN, "shim"] }, gone: { command: "claude-ide-bridge", args: ["shim"] } },
    }),
  );
  const dying = join(userHome, "rust-lsp");
  await writeFile(dying, "#!/bin/sh\necho 'rust-lsp: cannot start' >&2\nexit 3\n");
  await chmod(dying, 0o755);
  const config = join(userHome, "bridge.json");
  await writeFile(config, JSON.stringify({ lsp: { rust: { command: dying, filePatterns: ["*.rs"] } } }));
  await writeFile(join(home.workspace, "src", "main.rs"), "fn main() {}\n");
  const lockDir = dirname(join(home.configDir, "ide", "x"));
  await chmod(lockDir, 0o755);
  try {
    const d = await doctor({ CLAUDE_IDE_BRIDGE_CONFIG: config });
    expect(d.code).toBe(1);
    expect(find(d, "claude config", "mcpServers.ide")).toMatchObject({
      status: "fail",
      fix: expect.stringMatching(/claude mcp remove ide, then claude mcp add claude-ide-bridge -- /),
    });
    expect(find(d, "claude config", "mcpServers.gone")).toMatchObject({
      status: "fail",
      summary: expect.stringMatching(/command "claude-ide-bridge" not found/),
      // A command that works from here: this checkout's bin, not a claude-ide-bridge that is not on PATH.
      fix: expect.stringContaining(`node ${BRIDGE_BIN} init`),
    });
    expect(find(d, "language server", "config:rust")).toMatchObject({
      status: "fail",
      summary: expect.stringMatching(/exited with code 3 before answering initialize: rust-lsp: cannot start/),
    });
    expect(find(d, "lock", "mode 755")).toMatchObject({ status: "fail", fix: `chmod 700 ${lockDir}` });
  } finally {
    await chmod(lockDir, 0o700);
    await rm(join(home.workspace, "src", "main.rs"));
  }
});

it("names a config file it cannot read as broken, and still checks the rest", async () => {
  const config = join(userHome, "broken.json");
  await writeFile(config, "{ lsp: ");
  const d = await doctor({ CLAUDE_IDE_BRIDGE_CONFIG: config });
  expect(d.code).toBe(1);
  expect(find(d, "config", `${config}: not valid JSON`)).toMatchObject({
    status: "fail",
    fix: expect.stringContaining("CLAUDE_IDE_BRIDGE_CONFIG"),
  });
  expect(find(d, "language server", "tsgo answers initialize")?.status).toBe("ok");
});

/** A loopback port nothing listens on (taken, then released). */
function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address !== null ? address.port : 0));
    });
  });
}

it("tries each entry with its own command, headers and token, and fails the ones Claude Code would fail on", async () => {
  const stale = randomToken();
  const url = `http://127.0.0.1:${bridge.port}/mcp`;
  await writeFile(
    join(home.workspace, ".mcp.json"),
    JSON.stringify({
      mcpServers: {
        "http-ok": { type: "http", url, headers: { Authorization: `Bearer ${bridge.token}` } },
        "http-stale": { type: "http", url, headers: { Authorization: `Bearer ${stale}` } },
        "ws-ok": { type: "ws", url: `ws://127.0.0.1:${bridge.port}/`, headers: { "x-claude-code-ide-authorization": bridge.token } },
        "ws-stale": { type: "ws", url: `ws://127.0.0.1:${bridge.port}/`, headers: { "x-claude-code-ide-authorization": stale } },
        "http-gone": { type: "http", url: `http://127.0.0.1:${await closedPort()}/mcp`, headers: { Authorization: `Bearer ${stale}` } },
        "bad-workspace": { type: "stdio", command: "node", args: [BRIDGE_BIN, "shim", "--workspace", join(userHome, "nope")] },
        portable: { type: "stdio", command: "node", args: ["${CLAUDE_IDE_BRIDGE_HOME}/bin/claude-ide-bridge.js", "shim"] },
      },
    }),
  );
  const d = await doctor();
  expect(d.code).toBe(1);
  expect(d.report.ok).toBe(false);
  expect(find(d, "claude config", "mcpServers.http-ok")?.status).toBe("ok");
  expect(find(d, "claude config", "mcpServers.ws-ok")?.status).toBe("ok");
  for (const name of ["http-stale", "ws-stale"]) {
    expect(find(d, "claude config", `mcpServers.${name}`), name).toMatchObject({
      status: "fail",
      summary: expect.stringContaining("the bridge refuses this entry's token (HTTP 401)"),
      fix: expect.stringContaining(`node ${BRIDGE_BIN} print-token --port ${bridge.port}`),
    });
  }
  expect(find(d, "claude config", "mcpServers.http-gone")).toMatchObject({
    status: "fail",
    summary: expect.stringMatching(/nothing answers at .* \(ECONNREFUSED\): no bridge runs on that port/),
  });
  expect(find(d, "claude config", "mcpServers.bad-workspace")).toMatchObject({
    status: "fail",
    summary: expect.stringContaining(`the workspace directory this server was given (${join(userHome, "nope")}) does not exist`),
  });
  expect(find(d, "claude config", "mcpServers.portable")).toMatchObject({
    status: "fail",
    summary: expect.stringContaining("needs the environment variable CLAUDE_IDE_BRIDGE_HOME"),
    fix: `export CLAUDE_IDE_BRIDGE_HOME=${REPO_ROOT.replace(/\/$/, "")} (in your shell profile), then start Claude Code again`,
  });
  expect(JSON.stringify(d.report)).not.toContain(bridge.token);
  expect(JSON.stringify(d.report)).not.toContain(stale);

  // With the variable set, as the fix says, the portable entry connects.
  const fixed = await doctor({ CLAUDE_IDE_BRIDGE_HOME: REPO_ROOT });
  expect(find(fixed, "claude config", "mcpServers.portable")).toMatchObject({ status: "ok", summary: expect.stringContaining("connects") });
});

it("with Python here, starts pyright and shuts it down so that it removes its folder in the temp dir", async () => {
  const py = join(home.workspace, "probe.py");
  const temp = await mkdtemp(join(tmpdir(), "doctor-tmp-"));
  try {
    await writeFile(py, "x = 1\n");
    const d = await doctor({ TMPDIR: temp });
    expect(find(d, "language server", "pyright answers initialize")?.status).toBe("ok");
    // Killed without `shutdown`, pyright leaves its pyright-<pid>-<random> folder behind.
    expect((await readdir(temp)).filter((n) => n.startsWith("pyright-"))).toEqual([]);
  } finally {
    await rm(py, { force: true });
    await rm(temp, { recursive: true, force: true });
  }
});
