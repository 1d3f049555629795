// `notify`'s exit codes, as its help states them: Claude Code blocks on 2 only, so notify never
// exits 2; a mistake in the hook's command line is 1 (a non-blocking hook error the author sees);
// everything that goes wrong at run time (no bridge, unreadable input) is said on stderr and is 0.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createNodeRuntime } from "../../../runtime/node.ts";
import { notifyCommand } from "../../../src/cli/notify.ts";
import type { CommandContext } from "../../../src/cli/command-io.ts";

let configDir: string;
beforeAll(async () => {
  configDir = await mkdtemp(join(tmpdir(), "notify-codes-"));
});
afterAll(async () => {
  await rm(configDir, { recursive: true, force: true });
});

async function run(args: string[], stdin: () => Promise<string | undefined> = async () => "{}") {
  const out: string[] = [];
  const err: string[] = [];
  const runtime = createNodeRuntime();
  const ctx: CommandContext = {
    // No lock directory of a running bridge: the bridges are looked for in this empty config.
    runtime: { ...runtime, env: { ...runtime.env, CLAUDE_CONFIG_DIR: configDir } },
    out: (text) => out.push(text),
    err: (text) => err.push(text),
    self: { command: "node", args: ["bin/claude-ide-bridge.js"] },
    runtimeVersion: "20",
    signalProcess: () => {},
  };
  const code = await notifyCommand(stdin)(ctx, args);
  return { code, out: out.join(""), err: err.join("") };
}

describe("notify's exit codes", () => {
  it("says in its help which codes it uses, and never 2", async () => {
    const help = await run(["--help"]);
    expect(help.code).toBe(0);
    expect(help.out).toMatch(/Exits 0 when the event was sent, and also when it could not be/);
    expect(help.out).toMatch(/1 for a mistake in this command line/);
    expect(help.out).toMatch(/never 2, the\s+code by which Claude Code blocks/);
    expect(help.out).not.toMatch(/Always exits 0/);
  });

  it("exits 1 for a mistake in the command line, naming it", async () => {
    for (const args of [[], ["CwdChanged", "--field", "novalue"], ["CwdChanged", "--bogus"], ["Cwd Changed!"]]) {
      const result = await run(args);
      expect(result.code, args.join(" ")).toBe(1);
      expect(result.err).toMatch(/^claude-ide-bridge notify: .*\(notify --help\)\n$/);
    }
  });

  it("exits 0 when nothing can be sent, and says why", async () => {
    const none = await run(["CwdChanged", "--workspace", configDir]);
    expect(none).toMatchObject({ code: 0, out: "" });
    expect(none.err).toMatch(/no running bridge for .*; CwdChanged was not sent/);
    const broken = await run(["CwdChanged"], async () => {
      throw new Error("stdin went away");
    });
    expect(broken).toMatchObject({ code: 0 });
    expect(broken.err).toMatch(/stdin went away/);
  });
});
