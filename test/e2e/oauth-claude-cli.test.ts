// The real Claude Code CLI against the bridge over TLS (a test CA, NODE_EXTRA_CA_CERTS), as a user on
// another machine adds it: `claude mcp add --transport http` with no header reaches "Needs
// authentication" from the 401's challenge. Then `claude mcp login` does the OAuth flow (its
// own PKCE, state and resource indicator), with the test as the browser: it opens the printed
// authorization URL, the owner approves on the bridge's page, and the redirect goes to the CLI's
// loopback callback. The CLI stores the tokens, shows the server connected, and a print-mode run
// with the scripted model calls a bridge tool with them.
//
// Claude Code names itself by a Client ID Metadata Document on claude.ai, which this machine cannot
// fetch; so the test registers a client (RFC 7591, a loopback redirect URI on any port) and adds the
// server with `--client-id`, the pre-registered-client path. `mcp login` wants a terminal (it reads
// a pasted redirect URL as the fallback), which util-linux `script` provides.
import { spawn } from "node:child_process";
import { mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { qualifiedToolName, resultText, toolCallScript } from "../helpers/call-tool-through-claude.ts";
import { assertClaudeUsable, CLAUDE_CLIS, runClaude, type ClaudeCli } from "../helpers/claude-clis.ts";
import { claudeEnv } from "../helpers/claude-env.ts";
import { startFakeModelApi } from "../helpers/fake-model-api.ts";
import { fetchTrusting } from "../helpers/fetch-trusting.ts";
import { blocksOf, isToolResult, isToolUse } from "../helpers/model-api-types.ts";
import { answer, openApproval, register } from "../helpers/oauth-client.ts";
import { startRemoteBridge, tlsArgs, type RemoteBridge } from "../helpers/remote-bridge.ts";
import { makeTestCa, type TestCa } from "../helpers/test-ca.ts";

const AUTHORIZE_URL = /https:\/\/[^\s\u0007\u001b]+\/oauth\/authorize\?[^\s\u0007\u001b]+/;
const LOGIN_TIMEOUT_MS = 90_000;

let dir: string;
let ca: TestCa;
let bridge: RemoteBridge;
let fetch: ReturnType<typeof fetchTrusting>;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "oauth-claude-"));
  ca = await makeTestCa(join(dir, "ca"));
  fetch = fetchTrusting(ca.ca);
  bridge = await startRemoteBridge({ args: tlsArgs(ca) });
});

afterAll(async () => {
  await bridge?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

interface Login {
  code: number | null;
  out: string;
}

/**
 * `claude mcp login <name> --no-browser` in a pseudo-terminal; `onUrl` gets the authorization URL
 * it prints and plays the browser. Resolves when the CLI exits.
 */
function login(
  cli: ClaudeCli,
  name: string,
  opts: { cwd: string; env: NodeJS.ProcessEnv; onUrl(url: string): Promise<void> },
): Promise<Login> {
  return new Promise((resolve, reject) => {
    const command = `'${cli.bin}' mcp login ${name} --no-browser`;
    const child = spawn("script", ["-qfec", command, "/dev/null"], { cwd: opts.cwd, env: opts.env, stdio: ["pipe", "pipe", "pipe"] });
    let out = "";
    let browsed = false;
    const timer = setTimeout(() => child.kill("SIGKILL"), LOGIN_TIMEOUT_MS);
    const onData = (d: Buffer) => {
      out += d.toString("utf8");
      const url = AUTHORIZE_URL.exec(out)?.[0];
      if (url === undefined || browsed) return;
      browsed = true;
      opts.onUrl(url).catch((err: unknown) => {
        child.kill("SIGKILL");
        reject(err);
      });
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.once("error", (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.once("close", (code) => {
      clearTimeout(timer);
      child.stdin.destroy();
      resolve({ code, out });
    });
  });
}

describe.each(CLAUDE_CLIS)("Claude Code $version with OAuth over TLS", (cli: ClaudeCli) => {
  let home: string;
  const env = () => ({ NODE_EXTRA_CA_CERTS: ca.caFile });
  const claude = (args: string[]) => runClaude(cli, args, { cwd: bridge.workspace, home, env: env() });

  beforeAll(async () => {
    home = await realpath(await mkdtemp(join(tmpdir(), "claude-home-")));
    await assertClaudeUsable(cli, home);
  });
  afterAll(async () => {
    if (home) await rm(home, { recursive: true, force: true });
  });

  it("reaches Needs authentication from the 401 without a token", async () => {
    const add = await claude(["mcp", "add", "--transport", "http", "remote-plain", bridge.remoteMcpUrl]);
    expect(add.code, add.out).toBe(0);
    const list = await claude(["mcp", "list"]);
    expect(list.out).toMatch(/remote-plain:.*Needs authentication/);
  }, 120_000);

  it("logs in through the owner's approval, connects and calls a tool with the token", async () => {
    const client = await register(fetch, `${bridge.issuer}/oauth/register`, {
      client_name: `Claude Code ${cli.version}`,
      redirect_uris: ["http://localhost/callback"],
    });
    const add = await claude(["mcp", "add", "--transport", "http", "--client-id", client.clientId, "remote", bridge.remoteMcpUrl]);
    expect(add.code, add.out).toBe(0);

    let callback: URL | undefined;
    const result = await login(cli, "remote", {
      cwd: bridge.workspace,
      env: { ...claudeEnv(home), ...env() },
      async onUrl(url) {
        const authorize = new URL(url);
        expect(authorize.searchParams.get("code_challenge_method")).toBe("S256");
        expect(authorize.searchParams.get("resource")).toBe(bridge.remoteMcpUrl);
        const form = await openApproval(fetch, url);
        if (form instanceof Response) throw new Error(`no approval page: ${form.status} ${await form.text()}`);
        expect(form.html).toContain(`Claude Code ${cli.version}`);
        const approved = await answer(fetch, form, { ownerToken: bridge.token });
        expect(approved.status).toBe(303);
        callback = new URL(approved.headers.get("location") ?? "");
        expect(callback.searchParams.get("iss")).toBe(bridge.issuer);
        // The browser following the redirect to the CLI's loopback listener.
        const back = await fetch(callback.href);
        await back.text();
      },
    });
    expect(callback, result.out).toBeDefined();
    expect(result.code, result.out).toBe(0);

    const list = await claude(["mcp", "list"]);
    expect(list.out).toMatch(/remote:.*✔ Connected/);

    const tool = qualifiedToolName("remote", "readFile");
    const api = await startFakeModelApi(toolCallScript(tool, { args: { path: "README.md" }, finalText: "done" }));
    try {
      const run = await runClaude(cli, ["-p", `Call ${tool}.`, "--output-format", "json", "--allowedTools", tool], {
        cwd: bridge.workspace,
        home,
        env: { ...env(), ANTHROPIC_BASE_URL: api.url, ANTHROPIC_API_KEY: "test-key", MCP_CONNECTION_NONBLOCKING: "0" },
      });
      expect(api.scriptErrors, run.out).toEqual([]);
      const last = api.turns().at(-1);
      const blocks = (last?.messages ?? []).flatMap((m) => (m.role === "system" ? [] : blocksOf(m)));
      const use = blocks.filter(isToolUse).find((b) => b.name === tool);
      const toolResult = blocks.filter(isToolResult).find((b) => b.tool_use_id === use?.id);
      expect(toolResult, run.out).toBeDefined();
      expect(toolResult?.is_error ?? false).toBe(false);
      expect(resultText(toolResult ?? { type: "tool_result", tool_use_id: "" })).toContain("A tiny workspace");
    } finally {
      await api.close();
    }
    // Four CLI runs and a login: about 50 s on a loaded 2-core machine.
  }, 240_000);
});
