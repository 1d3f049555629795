// `claude-ide-bridge notify <Event> [--field k=v ...] [--port N] [--workspace DIR]`: what Claude
// Code's command hooks run (`init --hooks` writes them). It reads the hook's JSON input from stdin,
// finds the bridge for the project by its lock file (the shim's rules), and posts
// `{ event, ...input, ...fields }` to its /notify with the lock's token. A hook must never hold
// Claude Code up, and Claude Code blocks on exit code 2 only (a compaction, a task; every other code
// is a non-blocking error it shows): whatever happens at run time (no bridge, a refusal, a timeout)
// it says so on stderr and exits 0, within about two seconds; a mistake in the hook's command line
// exits 1, so the hook's author sees it as a hook error. Run inside a bridge task, it names the task (the loop guard).
import { BridgeError, errorMessage } from "../errors.ts";
import { TASK_ID_VARIABLE } from "../capabilities/claude/claude-env.ts";
import { chooseLock, listLocks } from "./bridge-locks.ts";
import type { CommandContext, CommandMain } from "./command-io.ts";
import { parseFlags, portFlag, usage, workspaceFlag } from "./flags.ts";

const NOTIFY_HELP = `Usage: claude-ide-bridge notify <Event> [--field <key>=<value> ...] [--port <n>] [--workspace <dir>]

Posts a Claude Code hook event to the running bridge of the project, for its automation hooks
(--automation-policy). Meant for Claude Code's command hooks, which pass the event's JSON on stdin;
\`claude-ide-bridge init --hooks\` writes them into .claude/settings.json. Events: CwdChanged,
PreCompact, PostCompact, InstructionsLoaded, TaskCreated, PermissionDenied, FileChanged, PostToolUse
(Write, Edit, MultiEdit, NotebookEdit: a file save).
Exits 0 when the event was sent, and also when it could not be (no bridge, a refusal, a timeout:
said on stderr), so a hook never holds Claude Code up; 1 for a mistake in this command line (an
unknown option, a bad --field), which Claude Code shows as a non-blocking hook error; never 2, the
code by which Claude Code blocks a compaction or a task.
  --field <k>=<v>   Add or override a field of the event (repeatable)
  --port <n>        The bridge on this port (default: the one whose workspace holds the project)
  --workspace <dir> The project (default: the hook input's cwd, else CLAUDE_PROJECT_DIR, else here)
`;

const REQUEST_TIMEOUT_MS = 2_000;

/** `readStdin` gives the hook's input, or undefined when stdin is a terminal or sends nothing in time. */
export function notifyCommand(readStdin: () => Promise<string | undefined>): CommandMain {
  return async (ctx, args) => {
    try {
      return await notify(ctx, args, readStdin);
    } catch (err) {
      // Exit code 2 would block Claude Code (a compaction, a task): a mistake in the hook's command is 1, anything else 0.
      const mistake = err instanceof BridgeError && err.code === "usage";
      ctx.err(`claude-ide-bridge notify: ${errorMessage(err)}${mistake ? " (notify --help)" : ""}\n`);
      return mistake ? 1 : 0;
    }
  };
}

async function notify(ctx: CommandContext, args: readonly string[], readStdin: () => Promise<string | undefined>): Promise<number> {
  const fields: Record<string, string> = {};
  const rest: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? "";
    const value = arg === "--field" ? args[++i] : arg.startsWith("--field=") ? arg.slice("--field=".length) : undefined;
    if (value === undefined && arg !== "--field") {
      rest.push(arg);
      continue;
    }
    const eq = value?.indexOf("=") ?? -1;
    if (value === undefined || eq < 1) throw usage(`--field needs <key>=<value>, got "${value ?? ""}"`);
    fields[value.slice(0, eq)] = value.slice(eq + 1);
  }
  const flags = parseFlags(rest, { values: ["--port", "--workspace"], booleans: ["--help", "-h"], maxPositionals: 1 });
  if (flags.booleans.has("--help") || flags.booleans.has("-h")) {
    ctx.out(NOTIFY_HELP);
    return 0;
  }
  const event = flags.positionals[0];
  if (event === undefined || !/^[A-Za-z]{1,40}$/.test(event)) throw usage("notify needs the event's name, e.g. notify CwdChanged");
  const { runtime } = ctx;
  const input = hookInput(await readStdin(), (message) => ctx.err(`claude-ide-bridge notify: ${message}\n`));
  // Claude Code's FileChanged calls the kind of change `event`, the name the envelope uses.
  const { event: fileEvent, ...fromHook } = input;
  const taskId = runtime.env[TASK_ID_VARIABLE];
  const body = {
    ...fromHook,
    ...(fileEvent === undefined ? {} : { file_event: fileEvent }),
    ...(taskId === undefined ? {} : { bridge_task_id: taskId }),
    ...fields,
    event,
  };
  const cwd =
    (flags.values.has("--workspace") ? workspaceFlag(flags, runtime.paths.cwd) : undefined) ??
    (typeof input.cwd === "string" ? input.cwd : undefined) ??
    runtime.env.CLAUDE_PROJECT_DIR ??
    runtime.paths.cwd;
  const port = portFlag(flags);
  const bridges = (await listLocks(runtime)).filter((l) => l.lock.isBridge);
  const target = await chooseLock(runtime, bridges, { port, cwd });
  if (target === undefined) {
    ctx.err(`claude-ide-bridge notify: no running bridge for ${port === undefined ? cwd : `port ${port}`}; ${event} was not sent\n`);
    return 0;
  }
  try {
    const response = await fetch(`http://127.0.0.1:${target.port}/notify`, {
      method: "POST",
      headers: { authorization: `Bearer ${target.lock.authToken}`, "content-type": "application/json" },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    const answer = await response.text();
    if (!response.ok) ctx.err(`claude-ide-bridge notify: the bridge on port ${target.port} refused ${event}: ${answer.slice(0, 500)}\n`);
  } catch (err) {
    ctx.err(`claude-ide-bridge notify: could not reach the bridge on port ${target.port}: ${errorMessage(err)}\n`);
  }
  return 0;
}

function hookInput(text: string | undefined, warn: (message: string) => void): Record<string, unknown> {
  if (text === undefined || text.trim() === "") return {};
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
    warn("stdin is not a JSON object; sending the event without the hook's input");
  } catch {
    warn("stdin is not JSON; sending the event without the hook's input");
  }
  return {};
}
