// `claude-ide-bridge init [--workspace DIR] [--name NAME] [--command CMD] [--portable] [--dry-run]`:
// writes or updates the project's `.mcp.json` entry that runs the stdio shim (protocol.md D1).
// Idempotent; other servers, unknown keys (in the file and in our entry) and the file's indentation
// and line endings are kept; a file that is not valid JSON is never overwritten. .mcp.json is meant
// to be committed, so it says whether the entry it wrote works only on this machine (a checkout's
// absolute path) and offers the portable form; a server named "ide" is refused (Claude Code would
// hide all but two of its tools).
import { errorMessage, fsErrorCode } from "../errors.ts";
import { join } from "../lib/paths/posix-path.ts";
import type { CommandMain } from "./command-io.ts";
import { parseFlags, usage, workspaceFlag } from "./flags.ts";
import { writeHooks } from "./init-hooks.ts";
import { checkoutOf, DEFAULT_SERVER_NAME, HOME_VARIABLE, IDE_NAME_NOTE, portableEntry, shimCommand } from "./shim-entry.ts";

const INIT_HELP = `Usage: claude-ide-bridge init [--workspace <dir>] [--name <name>] [--command <cmd>] [--portable] [--hooks] [--dry-run] [--force]

Adds (or updates) the stdio shim to <dir>/.mcp.json (default: the current directory), so Claude
Code in that project reaches the bridge:
  { "mcpServers": { "${DEFAULT_SERVER_NAME}": { "type": "stdio", "command": ..., "args": [..., "shim"] } } }
  --name <name>     Server name (default: ${DEFAULT_SERVER_NAME}; "ide" is refused: Claude Code
                    then shows the model only two of its tools)
  --command <cmd>   How to run claude-ide-bridge, e.g. "npx -y claude-ide-bridge" (default: how
                    this copy starts where Claude Code runs it: npx/bunx/deno when installed by
                    one, node and the absolute bin path from a checkout, claude-ide-bridge when
                    installed globally)
  --portable        From a checkout, name it as \${${HOME_VARIABLE}}/bin/claude-ide-bridge.js
                    instead of its absolute path, which exists only on this machine: for a
                    .mcp.json you commit. Each user sets ${HOME_VARIABLE} to their checkout;
                    Claude Code expands it
  --hooks           Also add Claude Code command hooks to <dir>/.claude/settings.json that pass its
                    events (CwdChanged, compaction, file saves, ...) to the bridge's automation
                    hooks: claude-ide-bridge notify <Event> (your own hooks and settings are kept).
                    Installed in the project (node_modules), they run its bin through
                    $CLAUDE_PROJECT_DIR; with --portable, a checkout through $${HOME_VARIABLE}
  --dry-run         Show what would change; write nothing
  --force           Write even a server named "ide"
`;

type InitOutcome = "created" | "added" | "updated" | "unchanged";

export const init: CommandMain = async (ctx, args) => {
  const flags = parseFlags(args, {
    values: ["--workspace", "--name", "--command"],
    booleans: ["--dry-run", "--portable", "--force", "--hooks", "--help", "-h"],
  });
  if (flags.booleans.has("--help") || flags.booleans.has("-h")) {
    ctx.out(INIT_HELP);
    return 0;
  }
  const { runtime } = ctx;
  const dir = workspaceFlag(flags, runtime.paths.cwd);
  const name = flags.values.get("--name") ?? DEFAULT_SERVER_NAME;
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(name)) throw usage(`--name must be 1-64 letters, digits, "_" or "-", got "${name}"`);
  if (name === "ide") {
    ctx.err(IDE_NAME_NOTE);
    if (!flags.booleans.has("--force")) {
      ctx.err("claude-ide-bridge init: nothing was written (--force writes it anyway).\n");
      return 2;
    }
  }
  const stat = await runtime.fs.stat(dir).catch(() => undefined);
  if (!stat?.isDirectory) {
    ctx.err(`claude-ide-bridge init: ${dir} is not a directory\n`);
    return 1;
  }
  const path = join(dir, ".mcp.json");
  const machine = shimCommand(ctx.self, { override: flags.values.get("--command") });
  const checkout = checkoutOf(machine);
  const portable = flags.booleans.has("--portable");
  const entry = portable ? portableEntry(machine) : machine;

  let before: string | undefined;
  try {
    before = await runtime.fs.readTextFile(path);
  } catch (err) {
    if (fsErrorCode(err) !== "ENOENT") {
      ctx.err(`claude-ide-bridge init: cannot read ${path}: ${errorMessage(err)}\n`);
      return 1;
    }
  }
  const result = updateMcpJson(before, name, { type: "stdio", ...entry });
  if ("error" in result) {
    ctx.err(`claude-ide-bridge init: ${path}: ${result.error}; fix or remove it, then run init again. Nothing was changed.\n`);
    return 1;
  }
  const shown = `${entry.command} ${entry.args.join(" ")}`;
  const dry = flags.booleans.has("--dry-run");
  if (result.outcome !== "unchanged" && !dry) await runtime.fs.writeFileAtomic(path, result.text);
  const verb = dry ? "would be" : "was";
  const report: Record<InitOutcome, string> = {
    created: `${path} ${dry ? "would be created" : "created"} with mcpServers.${name}: ${shown}`,
    added: `mcpServers.${name} ${verb} added to ${path}: ${shown} (other entries kept)`,
    updated: `mcpServers.${name} in ${path} ${verb} updated: ${shown} (was: ${result.previous ?? "?"}; other entries and keys kept)`,
    unchanged: `${path} already has mcpServers.${name}: ${shown}; nothing to change`,
  };
  ctx.err(`${report[result.outcome]}\n`);
  ctx.err(`${formNote(checkout, portable)}\n`);
  if (result.outcome !== "unchanged" && !dry) {
    ctx.err(
      "Claude Code asks once to approve a project's .mcp.json servers (start `claude` there, or set enableAllProjectMcpServers in its settings); " +
        "then `claude mcp list` in that directory shows the connection.\n",
    );
  }
  const override = flags.values.get("--command");
  if (flags.booleans.has("--hooks"))
    return writeHooks(ctx, { dir, ...(override === undefined ? {} : { override }), portable, dryRun: dry });
  return 0;
};

/** Which form was written, and whether it works for a teammate who gets the file. */
function formNote(checkout: string | undefined, portable: boolean): string {
  if (checkout === undefined) {
    return portable
      ? "--portable changed nothing: this entry names no checkout path (it runs an installed copy; teammates need the same install)."
      : "This entry names no path of this machine: it works for teammates who install claude-ide-bridge the same way.";
  }
  if (portable) {
    return (
      `Portable form: the entry reads the checkout from \${${HOME_VARIABLE}}, which Claude Code expands. Each user (you too) sets it ` +
      `before starting Claude Code, here: export ${HOME_VARIABLE}=${checkout} (in the shell profile); unset, Claude Code warns ` +
      `"Missing environment variables: ${HOME_VARIABLE}".`
    );
  }
  return (
    `Machine-specific form: the entry names this checkout by its absolute path (${checkout}), which teammates do not have. ` +
    `To commit .mcp.json, run init --portable (it writes \${${HOME_VARIABLE}}/bin/claude-ide-bridge.js), ` +
    "or keep the entry out of the repository: claude mcp add (local scope) instead of .mcp.json."
  );
}

type JsonObject = Record<string, unknown>;

type McpJsonUpdate = { outcome: InitOutcome; text: string; previous?: string } | { error: string };

/** The new file text for `before` (undefined: no file yet) with `entry` under mcpServers[name]. */
export function updateMcpJson(
  before: string | undefined,
  name: string,
  entry: { type: string; command: string; args: string[] },
): McpJsonUpdate {
  if (before === undefined || before.trim() === "") {
    return { outcome: "created", text: `${JSON.stringify({ mcpServers: { [name]: entry } }, null, 2)}\n` };
  }
  let doc: unknown;
  try {
    doc = JSON.parse(before);
  } catch (err) {
    return { error: `not valid JSON (${errorMessage(err)})` };
  }
  if (!isObject(doc)) return { error: "the top level is not a JSON object" };
  const servers = doc.mcpServers ?? {};
  if (!isObject(servers)) return { error: `"mcpServers" is not an object` };
  const old = servers[name];
  if (old !== undefined && !isObject(old)) return { error: `"mcpServers.${name}" is not an object` };
  // Keys of our entry the user added (env, timeout, …) stay; ours are set.
  const merged: JsonObject = { ...(old ?? {}), ...entry };
  if (old !== undefined && JSON.stringify(old) === JSON.stringify(merged)) return { outcome: "unchanged", text: before };
  const next = { ...doc, mcpServers: { ...servers, [name]: merged } };
  const eol = before.includes("\r\n") ? "\r\n" : "\n";
  let text = JSON.stringify(next, null, detectIndent(before));
  if (eol !== "\n") text = text.replace(/\n/g, eol);
  if (/\r?\n\s*$/.test(before)) text += eol;
  const previous = old === undefined ? undefined : describeEntry(old);
  return previous === undefined ? { outcome: "added", text } : { outcome: "updated", text, previous };
}

/** The file's indentation: that of its first indented line; none for a one-line file. */
function detectIndent(text: string): string | number {
  if (!text.trim().includes("\n")) return 0;
  return /\n([ \t]+)\S/.exec(text)?.[1] ?? 2;
}

function describeEntry(entry: JsonObject): string {
  const args = Array.isArray(entry.args) ? entry.args.map(String).join(" ") : "";
  if (typeof entry.command === "string") return `${entry.command}${args ? ` ${args}` : ""}`;
  return JSON.stringify(entry);
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
