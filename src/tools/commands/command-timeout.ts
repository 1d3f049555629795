// What runCommand and runInTerminal say when a command ran out of time: what ran, for how long,
// that its output so far is above, and the ways on (a longer timeout while there is room for one,
// a terminal of the user's own past the most, a narrower command), instead of a bare "killed".

/** A test command: a run of one file or one test is the narrower command to suggest. */
const TEST_COMMAND =
  /^(?:(?:npm|pnpm|yarn|bun)(?: run)? test(?::\S*)?|(?:npx |pnpm exec |yarn |bunx )?(?:vitest|jest|mocha|ava|tap)|(?:python3? -m )?pytest|go test|cargo (?:test|nextest)|node --test|deno test)\b/;

/** `shown` is the command line as the answer shows it (quoted where a word needs it). */
export function timeoutAdvice(shown: string, opts: { timeoutMs: number; maxMs: number; durationMs: number; output: boolean }): string {
  const ran = `${(opts.durationMs / 1000).toFixed(1)} s`;
  const lines = [
    `[timed out: \`${shown}\` ran ${ran} and was stopped at its ${opts.timeoutMs} ms timeout, with every process it started; ${opts.output ? "the output above is what it printed until then" : "it printed nothing until then"}.`,
  ];
  if (opts.timeoutMs < opts.maxMs) {
    lines.push(
      `- If it only needs longer: call again with timeoutMs up to ${opts.maxMs} (${opts.maxMs / 60_000} min, the most a call may take).`,
    );
  } else {
    lines.push(`- It had the most a call may take (${opts.maxMs / 60_000} min).`);
  }
  lines.push(
    "- A command that runs longer or never ends by itself (a dev server, a watch mode, an interactive prompt) belongs in a terminal of the user's own: ask them to start it there, or pass the flag that makes it end (e.g. `vitest run`, not `vitest`).",
  );
  lines.push(
    TEST_COMMAND.test(shown)
      ? "- Narrow it: runTests with file (one test file) or filter (one test name) runs only those and answers with the failures."
      : "- Narrow it: run it on one folder, file or target, so it finishes in time.",
  );
  return `${lines.join("\n")}]`;
}
