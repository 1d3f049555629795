// What the model reads for 20 common tasks on a real multi-file project (a clone of this
// repository at HEAD, with three local edits), done two ways through the real Claude Code CLI:
// with the bridge's tools, and with Claude Code's own (Read, Grep, Glob, Bash running git or find).
// A scripted stand-in for the model's API (test/helpers/fake-model-api.ts) makes every call of a
// side in one conversation, loading a deferred bridge tool with ToolSearch first (not counted), and
// records each tool_result as the model receives it. Printed: one row per task with the characters
// each side's result had, and their ratio. Tasks where the bridge does what the CLI's tools cannot
// (language-server answers) are marked; their built-in side is what a model does instead (grep).
// Usage: npm run build && node bench/model-view-tasks.mjs [claude-bin]
import { execFileSync } from "node:child_process";
import { appendFile, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { register } from "tsx/esm/api";

register();
const helpers = new URL("../test/helpers/", import.meta.url);
const { callable, offers, qualifiedToolName, resultText, toolResults, toolUses, TOOL_SEARCH } = await import(
  new URL("call-tool-through-claude.ts", helpers).href
);
const { DEFAULT_SERVER_NAME, REPO_CLAUDE_BIN, describeRun, runClaudePrint } = await import(new URL("claude-print.ts", helpers).href);
const { REPO_ROOT, startBridgeProcess, stopAllBridges } = await import(new URL("spawn-bridge.ts", helpers).href);

const claudeBin = process.argv[2] ?? REPO_CLAUDE_BIN;
const RUNNER = "src/capabilities/exec/git-runner.ts";
/** A function of RUNNER's with callers in other files: openGit, at its declaration. */
const SYMBOL = "openGit";

function lineOf(root, file, needle) {
  const text = execFileSync("cat", [join(root, file)], { encoding: "utf8" });
  const index = text.split("\n").findIndex((l) => l.includes(needle));
  if (index < 0) throw new Error(`${needle} not in ${file}`);
  return index + 1;
}

/** Each task: what the model asks for, the bridge's call, and Claude Code's own call(s) for the same. */
function tasks(root) {
  const abs = (p) => join(root, p);
  const declared = lineOf(root, RUNNER, `export async function ${SYMBOL}`);
  const grepOpts = { output_mode: "content", "-n": true };
  return [
    { task: "read a source file", bridge: ["readFile", { path: RUNNER }], own: ["Read", { file_path: abs(RUNNER) }] },
    {
      task: "read 40 lines from line 60",
      bridge: ["readFile", { path: RUNNER, startLine: 60, endLine: 99 }],
      own: ["Read", { file_path: abs(RUNNER), offset: 60, limit: 40 }],
    },
    { task: "find files by name", bridge: ["findFiles", { pattern: "**/*git*.ts" }], own: ["Glob", { pattern: "**/*git*.ts" }] },
    {
      task: "search the code for a pattern",
      bridge: ["searchWorkspace", { pattern: "groupOnly" }],
      own: ["Grep", { pattern: "groupOnly", ...grepOpts }],
    },
    {
      task: "search with 2 lines of context",
      bridge: ["searchWorkspace", { pattern: "hooksRun\\(", contextLines: 2 }],
      own: ["Grep", { pattern: "hooksRun\\(", ...grepOpts, "-C": 2 }],
    },
    {
      task: "which files mention a word",
      bridge: ["searchWorkspace", { pattern: "FIXED_GIT_ARGS", filesOnly: true }],
      own: ["Grep", { pattern: "FIXED_GIT_ARGS", output_mode: "files_with_matches" }],
    },
    {
      task: "the layout of a folder",
      bridge: ["getFileTree", { path: "src/capabilities", maxDepth: 2 }],
      own: ["Bash", { command: "find src/capabilities -maxdepth 2 | sort", description: "List the folder" }],
    },
    { task: "working tree status", bridge: ["getGitStatus", {}], own: ["Bash", { command: "git status", description: "Git status" }] },
    { task: "the uncommitted changes", bridge: ["getGitDiff", {}], own: ["Bash", { command: "git diff", description: "Git diff" }] },
    {
      task: "the last 10 commits",
      bridge: ["getGitLog", { limit: 10 }],
      own: ["Bash", { command: "git log -10", description: "Recent commits" }],
    },
    {
      task: "what the last commit changed",
      bridge: ["getCommitDetails", { ref: "HEAD", patch: false }],
      own: ["Bash", { command: "git show --stat HEAD", description: "Last commit" }],
    },
    {
      task: "who wrote these lines",
      bridge: ["gitBlame", { path: RUNNER, startLine: 40, endLine: 60 }],
      own: ["Bash", { command: `git blame -L 40,60 ${RUNNER}`, description: "Blame" }],
    },
    {
      task: "history of a file",
      bridge: ["getGitLog", { paths: [RUNNER], limit: 10 }],
      own: ["Bash", { command: `git log -10 -- ${RUNNER}`, description: "File history" }],
    },
    {
      task: "list the branches",
      bridge: ["gitListBranches", { includeRemote: true }],
      own: ["Bash", { command: "git branch -a -vv", description: "Branches" }],
    },
    {
      task: "changes between two commits (files)",
      bridge: ["getDiffBetweenRefs", { base: "HEAD~5", head: "HEAD", stat: true }],
      own: ["Bash", { command: "git diff --stat HEAD~5 HEAD", description: "Diff stat" }],
    },
    {
      task: "most-changed files",
      bridge: ["getGitHotspots", { days: 3650, limit: 20 }],
      own: [
        "Bash",
        {
          command: "git log --since=3650.days.ago --no-merges --name-only --format= | sort | uniq -c | sort -rn | head -20",
          description: "Hotspots",
        },
      ],
    },
    {
      task: "where a function is defined",
      lsp: true,
      bridge: [
        "goToDefinition",
        { file: "src/capabilities/exec/exec.ts", line: lineOf(root, "src/capabilities/exec/exec.ts", `${SYMBOL}(`), symbol: SYMBOL },
      ],
      own: ["Grep", { pattern: `function ${SYMBOL}\\b`, ...grepOpts }],
    },
    {
      task: "every use of a function",
      lsp: true,
      bridge: ["findReferences", { file: RUNNER, line: declared, symbol: SYMBOL }],
      own: ["Grep", { pattern: `\\b${SYMBOL}\\b`, ...grepOpts }],
    },
    {
      task: "who calls a function",
      lsp: true,
      bridge: ["getCallHierarchy", { file: RUNNER, line: declared, symbol: SYMBOL, direction: "incoming" }],
      own: ["Grep", { pattern: `${SYMBOL}\\(`, ...grepOpts }],
    },
    {
      task: "outline of a file",
      lsp: true,
      bridge: ["getDocumentSymbols", { file: RUNNER }],
      own: ["Grep", { pattern: "^(export )?(async )?(function|const|interface|type|class) ", path: abs(RUNNER), ...grepOpts }],
    },
  ];
}

/** One conversation making every call in order; a deferred tool is loaded with ToolSearch first. */
function stepsScript(steps) {
  return (request) => {
    const uses = toolUses(request);
    const results = toolResults(request);
    const answered = (u) => results.some((r) => r.tool_use_id === u.id);
    const done = uses.filter((u) => u.name !== TOOL_SEARCH && answered(u)).length;
    const step = steps[done];
    if (step === undefined) return { text: "Done." };
    const [name, input] = step;
    if (callable(request, name)) return { toolUses: [{ name, input }] };
    const query = `select:${name}`;
    if (offers(request, TOOL_SEARCH) && !uses.some((u) => u.name === TOOL_SEARCH && u.input?.query === query))
      return { toolUses: [{ name: TOOL_SEARCH, input: { query } }] };
    throw new Error(`${name} cannot be called: the request offers [${(request.tools ?? []).map((t) => t.name).join(", ")}]`);
  };
}

/** Runs one side's calls through the CLI; the text of each tool_result, in order. */
async function side(bridge, steps, allowedTools) {
  const run = await runClaudePrint("Do the listed lookups.", {
    bridge,
    claudeBin,
    script: stepsScript(steps),
    allowedTools,
    timeoutMs: 600_000,
  });
  const last = run.turns.at(-1);
  const uses = last === undefined ? [] : toolUses(last).filter((u) => u.name !== TOOL_SEARCH);
  if (run.scriptErrors.length > 0 || uses.length !== steps.length) throw new Error(`the run did not make every call\n${describeRun(run)}`);
  return uses.map((u) => {
    const block = toolResults(last).find((r) => r.tool_use_id === u.id);
    return { text: resultText(block), isError: block.is_error === true };
  });
}

const base = await realpath(await mkdtemp(join(tmpdir(), "bench-model-view-tasks-")));
const root = join(base, "project");
execFileSync("git", ["clone", "--quiet", "--no-hardlinks", REPO_ROOT, root]);
// A working tree with some of everything: a modified file, a staged one, an untracked one.
await appendFile(join(root, RUNNER), "\n// A local note.\n");
await appendFile(join(root, "README.md"), "\nA local line.\n");
execFileSync("git", ["add", "README.md"], { cwd: root });
await writeFile(join(root, "notes.md"), "scratch\n");
// The LSP tasks need the project's own TypeScript, as a user's checkout has it.
execFileSync("ln", ["-s", join(REPO_ROOT, "node_modules"), join(root, "node_modules")]);
const bridge = await startBridgeProcess({ workspace: root, args: ["--tool-rate-limit", "10000"] });
try {
  const list = tasks(root);
  const version = execFileSync(claudeBin, ["--version"], { encoding: "utf8" }).trim().split(" ")[0];
  console.log(`model-view tasks: Claude Code ${version}, ${list.length} tasks on a clone of ${REPO_ROOT}\n`);
  const qualified = (name) => qualifiedToolName(DEFAULT_SERVER_NAME, name);
  const ours = await side(
    bridge,
    list.map((t) => [qualified(t.bridge[0]), t.bridge[1]]),
    [...new Set(list.map((t) => qualified(t.bridge[0])))],
  );
  const theirs = await side(
    bridge,
    list.map((t) => t.own),
    ["Read", "Grep", "Glob", "Bash"],
  );
  const rows = list.map((t, i) => ({ ...t, ours: ours[i], theirs: theirs[i] }));
  const pad = (s, n) => String(s).padEnd(n);
  const num = (n) => n.toLocaleString("en-US").padStart(7);
  console.log(`| task | bridge tool | chars | Claude Code's own | chars | bridge / own |`);
  console.log(`|---|---|--:|---|--:|--:|`);
  let smaller = 0;
  for (const r of rows) {
    const ratio = r.ours.text.length / Math.max(1, r.theirs.text.length);
    if (ratio <= 1) smaller++;
    const flag = [r.lsp ? " (LSP)" : "", r.ours.isError ? " ERROR" : "", r.theirs.isError ? " (own: error)" : ""].join("");
    console.log(
      `| ${pad(r.task + flag, 40)} | ${pad(r.bridge[0], 18)} | ${num(r.ours.text.length)} | ${pad(r.own[0], 5)} | ${num(r.theirs.text.length)} | ${ratio.toFixed(2)} |`,
    );
  }
  const total = (k) => rows.reduce((n, r) => n + r[k].text.length, 0);
  console.log(
    `\nbridge smaller or equal on ${smaller} of ${rows.length} tasks; all tasks: ${total("ours")} vs ${total("theirs")} chars (${(total("ours") / total("theirs")).toFixed(2)}x)`,
  );
  if (process.env.MODEL_VIEW_SHOW)
    for (const r of rows) console.log(`\n## ${r.task}\n-- bridge:\n${r.ours.text}\n-- own:\n${r.theirs.text}`);
} finally {
  await stopAllBridges();
  await rm(base, { recursive: true, force: true });
}
