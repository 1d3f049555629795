// A real ToolContext for unit tests: the real filesystem through createNodeFs and the real
// workspace jail; only the parts of Runtime the tools under test use are filled in.
import { constants } from "node:fs";
import { access } from "node:fs/promises";
import { delimiter, join } from "node:path";
import type { Runtime } from "../../src/runtime.ts";
import { createNodeFs } from "../../runtime/node-fs.ts";
import { DEFAULT_CONFIG } from "../../src/config/schema.ts";
import type { LogLevel } from "../../src/mcp/logging.ts";
import { createWorkspace } from "../../src/security/paths.ts";
import type { ProbeResult, ToolCatalog, ToolContext } from "../../src/tools/context.ts";
import type { Tool } from "../../src/tools/define-tool.ts";

export interface TestToolContext extends ToolContext {
  readonly abort: AbortController;
  readonly progressCalls: { progress: number; total?: number; message?: string }[];
  readonly logCalls: { level: LogLevel; message: string; data?: unknown }[];
}

/** PATH lookup as a shell does it: the first executable regular file named `cmd`. */
export async function which(cmd: string): Promise<string | undefined> {
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    if (dir === "") continue;
    const candidate = join(dir, cmd);
    try {
      await access(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here; keep looking
    }
  }
  return undefined;
}

export function catalogOf(tools: readonly Tool[]): ToolCatalog {
  return {
    list: () =>
      tools.map((t) => ({ name: t.name, title: t.title, description: t.description, requires: t.requires, readOnly: t.annotations.readOnlyHint === true })),
  };
}

export async function makeToolContext(root: string, overrides: Partial<ToolContext> = {}): Promise<TestToolContext> {
  const fs = createNodeFs();
  const runtime = { name: "node", fs, which } as unknown as Runtime;
  const cache = new Map<string, Promise<ProbeResult>>();
  const abort = new AbortController();
  const progressCalls: TestToolContext["progressCalls"] = [];
  const logCalls: TestToolContext["logCalls"] = [];
  const base: TestToolContext = {
    workspace: await createWorkspace(fs, { root }),
    runtime,
    config: { ...DEFAULT_CONFIG, workspace: root },
    probes: {
      get(command) {
        const cached = cache.get(command) ?? which(command).then((path) => (path ? { available: true, path } : { available: false }));
        cache.set(command, cached);
        return cached;
      },
    },
    extension: { connected: false },
    catalog: catalogOf([]),
    signal: abort.signal,
    abort,
    progressCalls,
    logCalls,
    progress: (progress, opts) => progressCalls.push({ progress, ...opts }),
    log: (level, message, data) => logCalls.push({ level, message, data }),
  };
  return { ...base, ...overrides };
}
