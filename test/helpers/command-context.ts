// A scratch project and Claude config directory for the CLI commands' tests, and the CommandContext
// the CLI host would give a command there, with what it printed recorded.
import { mkdir, mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createNodeRuntime } from "../../runtime/node.ts";
import type { CommandContext } from "../../src/cli/command-io.ts";

export interface CommandScratch {
  /** The temporary directory holding the others (also HOME). */
  dir: string;
  /** A project with a src/ folder. */
  project: string;
  /** CLAUDE_CONFIG_DIR, with its ide/ lock directory. */
  configDir: string;
}

export async function makeCommandScratch(): Promise<CommandScratch> {
  const dir = await mkdtemp(join(tmpdir(), "commands-"));
  const scratch = { dir, project: join(dir, "project"), configDir: join(dir, "config") };
  await mkdir(join(scratch.project, "src"), { recursive: true });
  await mkdir(join(scratch.configDir, "ide"), { recursive: true });
  return scratch;
}

export const SELF = { command: "claude-ide-bridge", args: [] };

export function commandContext(
  scratch: CommandScratch,
  opts: { cwd: string; self?: CommandContext["self"] },
): CommandContext & { stdout: string; stderr: string } {
  const ctx = {
    runtime: {
      ...createNodeRuntime(),
      env: { CLAUDE_CONFIG_DIR: scratch.configDir, PATH: process.env.PATH },
      paths: { home: scratch.dir, cwd: opts.cwd, tmp: tmpdir() },
    },
    stdout: "",
    stderr: "",
    out: (t: string) => {
      ctx.stdout += t;
    },
    err: (t: string) => {
      ctx.stderr += t;
    },
    self: opts.self ?? SELF,
    runtimeVersion: process.versions.node,
    signalProcess: () => undefined,
  };
  return ctx;
}
