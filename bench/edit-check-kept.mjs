// An edit check's compiler runs kept from one edit to the next (src/services/diagnostics/kept-answers.ts):
// three commits in a row of src/testing.ts on the solution-style fixture (test/fixtures/lsp-repos.ts,
// two tsconfig projects), in process with the real language servers and tsgo: each commit's time.
// The first commit runs the compiler before and after the edit per project; the next two find their
// "before" kept from the previous commit's "after". Run it from two checkouts, taking turns, to
// compare them (the time of the first commit is the baseline of each run).
// Usage: node bench/edit-check-kept.mjs [rounds]   (one line per round: the three commits' ms)
import { register } from "tsx/esm/api";

register();
const { lspFixture, writeFiles } = await import(new URL("../test/helpers/lsp-fixture.ts", import.meta.url).href);
const repos = await import(new URL("../test/fixtures/lsp-repos.ts", import.meta.url).href);

const rounds = Number(process.argv[2] ?? 1);
for (let round = 0; round < rounds; round++) {
  const fx = await lspFixture({});
  try {
    await writeFiles(fx.root, repos.filesAt(repos.solutionTsRepo(), fx.root));
    // A server has the file, so the commit reports the edit's delta (what an editing session has).
    await fx.tools.data("getDiagnostics", { file: "src/testing.ts" });
    const times = [];
    const { readFile } = await import("node:fs/promises");
    let text = await readFile(`${fx.root}/src/testing.ts`, "utf8");
    for (let i = 0; i < 3; i++) {
      text = `${text}export const bench${i} = ${i};\n`;
      const started = performance.now();
      const { transactionId } = await fx.tools.data("beginTransaction", {});
      await fx.tools.text("stageEdit", { transactionId, filePath: "src/testing.ts", content: text });
      const answer = await fx.tools.text("commitTransaction", { transactionId });
      times.push(Math.round(performance.now() - started));
      if (!answer.startsWith(`Committed ${transactionId}`)) throw new Error(answer);
    }
    console.log(
      `commits: ${times.join(" ms, ")} ms (2nd ${(times[1] / times[0]).toFixed(2)}x, 3rd ${(times[2] / times[0]).toFixed(2)}x of the 1st)`,
    );
  } finally {
    await fx.stop();
  }
}
