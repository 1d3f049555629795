// The headless debugger on Node through its own inspector (src/dap/node-inspector/), driven by the
// debug tools as a client calls them: the whole scenario of debug/debug-scenario.ts on a TypeScript
// program compiled by the project's TypeScript with source maps, breakpoints set by .ts file and line.
import ts from "typescript";
import { afterAll, beforeAll, expect, it } from "vitest";
import { debugClient } from "../helpers/debug-harness.ts";
import { tempWorkspaces, type TempWorkspaces } from "../helpers/temp-workspace.ts";
import { runScenario } from "./debug/debug-scenario.ts";

const PROGRAM = `function add(a: number, b: number): number {
  const total = a + b;
  return total;
}

function main(): void {
  const api_token = "sk-abcdefghijklmnopqrstuvwx1234567890";
  const values = [1, 2, 3, 4, 5];
  let acc = 0;
  for (const i of values) {
    acc = add(acc, i);
  }
  console.log("acc is", acc);
  throw new RangeError(\`boom \${acc}\`);
}

main();
// nothing runs below this line
`;

const COMPILER_OPTIONS = { target: "ES2022", module: "commonjs", strict: true, sourceMap: true, rootDir: "src", outDir: "dist" };

/**
 * dist/app.js and its map as `tsc -p` writes them for this tsconfig, through the compiler's API in
 * this process (a tsc process would type-check the standard library too, seconds on a loaded machine).
 */
function compiled(): Record<string, string> {
  const { options } = ts.convertCompilerOptionsFromJson(COMPILER_OPTIONS, ".");
  const out = ts.transpileModule(PROGRAM, { compilerOptions: options, fileName: "app.ts" });
  const map = { ...JSON.parse(out.sourceMapText ?? "{}"), file: "app.js", sources: ["../src/app.ts"] };
  return { "dist/app.js": out.outputText, "dist/app.js.map": JSON.stringify(map) };
}

let temp: TempWorkspaces;
let root: string;

beforeAll(async () => {
  temp = await tempWorkspaces("debug-node-");
  root = await temp.make("ws", {
    "package.json": JSON.stringify({ name: "debug-node-fixture", private: true }),
    "tsconfig.json": JSON.stringify({ compilerOptions: COMPILER_OPTIONS, include: ["src"] }),
    "src/app.ts": PROGRAM,
    ...compiled(),
  });
});
afterAll(() => temp.remove());

it("debugs a TypeScript program under Node end to end (logpoints and conditions too), and a disconnect leaves no process", {
  timeout: 120_000,
}, async () => {
  const client = await debugClient(root);
  await runScenario(client, {
    language: "node",
    program: "dist/app.js",
    source: "src/app.ts",
    lines: { addBody: 2, addReturn: 3, call: 11, noCode: 18 },
    functionName: "add",
    thirdValue: "i",
    failure: { reason: "exception", id: /RangeError/, exitCode: 1 },
  });

  // The .ts itself as the program (its JavaScript found through the source map), with a logpoint and
  // a condition: the loop logs each addition, and add stops once its total passes 9.
  await client.data("setDebugBreakpoints", {
    file: "src/app.ts",
    breakpoints: [
      { text: "acc = add(acc", logMessage: "adding {i} to {acc}" },
      { text: "return total", condition: "total > 9" },
    ],
  });
  type Stop = {
    state: string;
    newOutput?: string;
    stop?: { reason: string; stack: { file?: string; line: number }[]; locals?: { name: string; value: string }[] };
  };
  const byTs = await client.data<Stop>("startDebugging", { program: "src/app.ts", timeoutMs: 60_000 });
  expect(byTs.stop?.stack[0]).toMatchObject({ file: "src/app.ts", line: 3 });
  expect(byTs.stop?.locals?.find((v) => v.name === "total")?.value).toBe("10");
  expect(byTs.newOutput).toContain("adding 1 to 0\nadding 2 to 1\nadding 3 to 3\nadding 4 to 6\n");
  const again = await client.data<Stop>("debugContinue", {});
  expect(again.stop?.locals?.find((v) => v.name === "total")?.value).toBe("15");
  const thrown = await client.data<Stop>("debugContinue", {});
  expect(thrown.stop?.reason).toBe("exception");
  expect(thrown.stop?.stack[0]).toMatchObject({ file: "src/app.ts", line: 14 });
  await client.data("stopDebugging", {});
});
