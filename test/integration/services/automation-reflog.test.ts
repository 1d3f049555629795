// Where commits made outside the bridge cannot be seen, said so: with real git, a repository whose
// core.logAllRefUpdates is false and which has no reflog gets none at its next commit (so the watcher
// has nothing to follow), one that has a reflog keeps appending to it whatever the setting, and a
// folder that is no working tree has no commits to watch. doctor turns /health's answer into a warning,
// and a bridge with a policy says it in getToolCapabilities too.
import { mkdir, mkdtemp, readFile, realpath, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { automationChecks } from "../../../src/cli/doctor-automation.ts";
import { createWorkspace } from "../../../src/security/jail/workspace-jail.ts";
import { outsideCommitsSeen } from "../../../src/services/automation/outside-commits.ts";
import { createToolEnvironment, toolContext } from "../../../src/tools/platform/tool-environment.ts";
import { gitFixture, type GitFixture } from "../../helpers/git-fixture.ts";
import { catalogOf } from "../../helpers/tool-context.ts";
import { startBridgeProcess } from "../../helpers/spawn-bridge.ts";
import { createEventBus } from "../../../src/capabilities/events/event-bus.ts";

let base: string;
let fx: GitFixture;

async function seen(dir: string) {
  const runtime = fx.runtime();
  const host = createToolEnvironment(runtime, {
    workspace: await createWorkspace(runtime.fs, { root: dir }),
    settings: { timeoutMs: 20_000, slim: false, maxResultChars: 100_000 },
    catalog: catalogOf([]),
    events: createEventBus(() => {}),
  });
  const signal = new AbortController().signal;
  return outsideCommitsSeen(
    toolContext(host, { session: "t", executables: ["git"], signal, progress: () => {}, log: () => {} }),
    runtime.fs,
  );
}

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), "automation-reflog-")));
  fx = await gitFixture(base);
});

afterAll(async () => {
  if (base) await rm(base, { recursive: true, force: true });
});

describe("whether commits made outside the bridge can be seen", () => {
  it("says no where git keeps no reflog, yes where it does, and doctor warns", async () => {
    const usual = await fx.repo(join(base, "usual"));
    expect(await seen(usual)).toEqual({ seen: true });

    const none = await fx.repo(join(base, "none"));
    fx.git(none, "config", "core.logAllRefUpdates", "false");
    await rm(join(none, ".git", "logs"), { recursive: true });
    const answer = await seen(none);
    expect(answer).toMatchObject({
      seen: false,
      reason: expect.stringMatching(/^core\.logAllRefUpdates is false and .*logs\/HEAD does not exist/),
    });
    // What the answer claims, checked with git: a commit there leaves no reflog behind.
    fx.git(none, "commit", "--quiet", "--allow-empty", "-m", "unseen");
    expect(await exists(join(none, ".git", "logs", "HEAD"))).toBe(false);

    // An existing reflog is appended to whatever the setting says: seen.
    const kept = await fx.repo(join(base, "kept"));
    fx.git(kept, "config", "core.logAllRefUpdates", "false");
    expect(await seen(kept)).toEqual({ seen: true });
    fx.git(kept, "commit", "--quiet", "--allow-empty", "-m", "seen");
    expect(await readFile(join(kept, ".git", "logs", "HEAD"), "utf8")).toMatch(/\tcommit: seen\n$/);

    const plain = join(base, "plain");
    await mkdir(plain);
    expect(await seen(plain)).toMatchObject({ seen: false, reason: expect.stringMatching(/^the workspace is not a git working tree/) });

    expect(automationChecks({ automation: { outsideCommits: answer } })).toEqual([
      {
        area: "automation",
        status: "warn",
        summary: expect.stringMatching(
          /^commits made outside the bridge are not seen \(onGitCommit fires for gitCommit's only\): core\.logAllRefUpdates/,
        ),
        fix: expect.stringMatching(/^git config core\.logAllRefUpdates true/),
      },
    ]);
    expect(automationChecks({ automation: { outsideCommits: { seen: true } } })).toEqual([]);
    expect(automationChecks({})).toEqual([]);
  }, 60_000);
});

describe("a bridge whose policy has onGitCommit, in a repository without a reflog", () => {
  it("says in getToolCapabilities that outside commits are not heard, with the fix", async () => {
    const repo = await fx.repo(join(base, "bridged"));
    fx.git(repo, "config", "core.logAllRefUpdates", "false");
    await rm(join(repo, ".git", "logs"), { recursive: true });
    const policy = join(base, "policy.json");
    await writeFile(policy, JSON.stringify({ onGitCommit: { prompt: "Review {{hash}}", cooldownMs: 5000 } }));
    const bridge = await startBridgeProcess({
      workspace: repo,
      args: ["--automation-policy", policy, "--claude-driver", "none"],
      env: fx.env,
    });
    const client = new Client({ name: "reflog-test", version: "1" });
    try {
      await client.connect(
        new StreamableHTTPClientTransport(new URL(bridge.mcpUrl), {
          requestInit: { headers: { Authorization: `Bearer ${bridge.token}` } },
        }),
      );
      // The bridge looks for the reflog after it serves: /health is asked until it has looked, bounded.
      const headers = { Authorization: `Bearer ${bridge.token}` };
      let looked = false;
      for (let i = 0; i < 100 && !looked; i++) {
        const health = (await (await fetch(`${bridge.url}/health`, { headers })).json()) as { automation?: { outsideCommits?: unknown } };
        looked = health.automation?.outsideCommits !== undefined;
        if (!looked) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(looked, bridge.stderr().slice(-2000)).toBe(true);
      const capabilities = await client.callTool({ name: "getToolCapabilities", arguments: {} });
      const automation = (capabilities.structuredContent as { automation?: unknown }).automation;
      expect(automation, bridge.stderr().slice(-2000)).toEqual({
        outsideCommitsSeen: false,
        reason: expect.stringMatching(/^core\.logAllRefUpdates is false/),
        fix: expect.stringMatching(/^git config core\.logAllRefUpdates true/),
      });
    } finally {
      await client.close();
      await bridge.stop();
    }
  }, 60_000);
});
