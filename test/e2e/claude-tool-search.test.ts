// Found by Claude Code's own tool search: the real CLI (`claude -p`, its model replaced by a scripted
// stand-in for the Messages API) is given the bridge under the README's server name, and the
// stand-in sends one ToolSearch keyword query per task phrase (all in one turn, max_results 5, as
// the model's default). A phrase is found when one of its tools is among the five the CLI returns,
// or is offered up front (not deferred). Recall over the phrases whose tools the bridge serves must
// be at least 95 %. The unit test ranks the same phrases with a replica of the CLI's ranking
// (test/helpers/tool-search-rank.ts); here the replica's five must be the CLI's five, phrase by
// phrase, so the fast test cannot drift from the real one.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TOOLSETS } from "../../src/tools/toolsets.ts";
import { describeRun, runClaudePrint } from "../helpers/claude-print.ts";
import { CLAUDE_CLIS } from "../helpers/claude-clis.ts";
import { TOOL_SEARCH, qualifiedToolName } from "../helpers/call-tool-through-claude.ts";
import { blocksOf, isToolResult, isToolUse, type MessagesRequest } from "../helpers/model-api-types.ts";
import { TASK_PHRASES } from "../helpers/tool-search-phrases.ts";
import { README_SERVER_NAME, toolSearch, type SearchableTool } from "../helpers/tool-search-rank.ts";
import { startBridgeProcess, type BridgeProcess } from "../helpers/spawn-bridge.ts";

const CLI_TIMEOUT_MS = 120_000;
const MAX_RESULTS = 5;
const MIN_RECALL = 0.95;
const PREFIX = qualifiedToolName(README_SERVER_NAME, "");

let bridge: BridgeProcess;

beforeAll(async () => {
  bridge = await startBridgeProcess();
});

afterAll(async () => {
  await bridge?.stop();
});

interface SearchRun {
  /** The bridge's tools the model was shown, by name (the deferred ones are only listed by name). */
  served: Set<string>;
  /** The bridge's tools offered with their schema in the first request: no search needed. */
  upFront: Set<string>;
  /** Each query and the bridge tools ToolSearch returned for it, in its order. */
  answers: Map<string, string[]>;
  why: string;
}

const messagesBlocks = (request: MessagesRequest) => request.messages.flatMap((m) => (m.role === "system" ? [] : blocksOf(m)));

async function searchThroughClaude(claudeBin: string, queries: readonly string[]): Promise<SearchRun> {
  const run = await runClaudePrint("Find the tools for these tasks.", {
    bridge,
    claudeBin,
    transport: "http",
    serverName: README_SERVER_NAME,
    timeoutMs: CLI_TIMEOUT_MS,
    script: (request) => {
      if (messagesBlocks(request).some(isToolResult)) return { text: "Searched." };
      return { toolUses: queries.map((query) => ({ name: TOOL_SEARCH, input: { query, max_results: MAX_RESULTS } })) };
    },
  });
  const why = describeRun(run);
  const first = run.turns[0];
  const last = run.turns.at(-1);
  if (!first || !last) throw new Error(`the CLI made no request\n${why}`);
  const upFront = new Set(
    (first.tools ?? []).filter((t) => t.name.startsWith(PREFIX) && !t.defer_loading).map((t) => t.name.slice(PREFIX.length)),
  );
  const listed = JSON.stringify(first).matchAll(new RegExp(`${PREFIX}([A-Za-z0-9_-]+)`, "g"));
  const served = new Set([...listed].map((m) => m[1] ?? ""));
  const blocks = messagesBlocks(last);
  const queryOf = new Map(
    blocks.filter(isToolUse).flatMap((u) => (u.name === TOOL_SEARCH ? [[u.id, (u.input as { query: string }).query] as const] : [])),
  );
  const answers = new Map<string, string[]>();
  for (const result of blocks.filter(isToolResult)) {
    const query = queryOf.get(result.tool_use_id);
    if (query === undefined) continue;
    const names = Array.isArray(result.content)
      ? result.content.flatMap((b) =>
          b.type === "tool_reference" && b.tool_name?.startsWith(PREFIX) ? [b.tool_name.slice(PREFIX.length)] : [],
        )
      : [];
    answers.set(query, names);
  }
  return { served, upFront, answers, why };
}

describe("Claude Code's ToolSearch finds the bridge's tools for plain task phrases", () => {
  const cli = CLAUDE_CLIS[0];
  if (!cli) throw new Error("no Claude Code CLI is pinned");

  it(
    `recall@${MAX_RESULTS} of at least ${MIN_RECALL * 100} % with the CLI ${cli.version}, and the unit test's ranking agrees with it`,
    async () => {
      const queries = TASK_PHRASES.map(([phrase]) => phrase);
      const search = await searchThroughClaude(cli.bin, queries);
      const { served, upFront } = search;
      expect(served.size, `the CLI offered no bridge tool\n${search.why}`).toBeGreaterThan(50);
      expect(search.answers.size, `ToolSearch answered ${search.answers.size} of ${queries.length} queries\n${search.why}`).toBe(
        queries.length,
      );

      const counted = TASK_PHRASES.filter(([, tools]) => tools.some((t) => served.has(t)));
      const missed = counted.filter(
        ([phrase, tools]) => !tools.some((t) => upFront.has(t) || (search.answers.get(phrase) ?? []).includes(t)),
      );
      const report = missed.map(
        ([phrase, tools]) => `  "${phrase}" wants ${tools.join("|")}; got ${search.answers.get(phrase)?.join(", ")}`,
      );
      const recall = (counted.length - missed.length) / counted.length;
      console.log(`ToolSearch recall@${MAX_RESULTS}: ${counted.length - missed.length}/${counted.length} (${(recall * 100).toFixed(1)} %)`);
      // The replica ranks the bridge's deferred tools as the CLI does: the bridge tools of each of
      // the CLI's answers are the replica's first ones, in the same order (the CLI's own tools may
      // take some of the five places).
      const tools: SearchableTool[] = TOOLSETS.flatMap((s) => s.tools).filter((t) => served.has(t.name) && !upFront.has(t.name));
      const disagreements = queries.flatMap((query) => {
        const real = search.answers.get(query) ?? [];
        const replica = toolSearch(tools, query, { maxResults: real.length }).map((t) => t.name);
        return replica.join() === real.join() ? [] : [`  "${query}": CLI ${real.join(", ")}; replica ${replica.join(", ")}`];
      });
      expect(disagreements, disagreements.join("\n")).toEqual([]);
      expect(counted.length).toBeGreaterThanOrEqual(80);
      expect(recall, `missed:\n${report.join("\n")}`).toBeGreaterThanOrEqual(MIN_RECALL);
    },
    CLI_TIMEOUT_MS + 30_000,
  );
});
