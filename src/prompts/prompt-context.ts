// What a prompt (and a completion) may use: the bridge's own tools, called as a client would call
// them, and what the bridge remembers of recent test runs. Prompts never reach the runtime or a
// toolset's code; the protocol engine (src/mcp/content/) builds this for each request.

/** One tool call's answer, as text a prompt can quote: its text blocks, or its structured JSON. */
export interface ToolOutcome {
  ok: boolean;
  text: string;
  /** The structured result, when the tool returned one. */
  data?: unknown;
}

/** One failing test of a recent run. */
export interface RecentFailure {
  test: string;
  file?: string;
  line?: number;
  message: string;
}

/** What the bridge keeps of the latest runTests run (any session). */
export interface RecentTestRun {
  runner: string;
  outcome: string;
  passed: number;
  failed: number;
  skipped: number;
  failures: readonly RecentFailure[];
  /** Milliseconds since epoch when the run finished. */
  at: number;
}

export interface PromptContext {
  /** Runs one of the bridge's tools; a tool this bridge does not serve answers ok: false. */
  tool(name: string, args?: Record<string, unknown>): Promise<ToolOutcome>;
  /** The latest test run the bridge saw, if any. */
  recentTests(): RecentTestRun | undefined;
  readonly signal: AbortSignal;
}
