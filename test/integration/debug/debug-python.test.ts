// The headless debugger on Python, through debugpy (Debian's python3-debugpy), driven by the debug
// tools as a client calls them: the whole scenario of debug-scenario.ts in one debug session.
import { afterAll, beforeAll, it } from "vitest";
import { debugClient } from "../../helpers/debug-harness.ts";
import { tempWorkspaces, type TempWorkspaces } from "../../helpers/temp-workspace.ts";
import { runScenario } from "./debug-scenario.ts";

const PROGRAM = `def add(a, b):
    total = a + b
    return total


def main():
    api_token = "sk-abcdefghijklmnopqrstuvwx1234567890"
    values = [1, 2, 3, 4, 5]
    acc = 0
    for i in values:
        acc = add(acc, i)
    print("acc is", acc, flush=True)
    raise ValueError("boom " + str(acc))


main()
# nothing runs below this line
`;

let temp: TempWorkspaces;
let root: string;

beforeAll(async () => {
  temp = await tempWorkspaces("debug-python-");
  root = await temp.make("ws", { "app.py": PROGRAM });
});
afterAll(() => temp.remove());

it("debugs a Python program end to end, and a disconnect leaves no process", { timeout: 120_000 }, async () => {
  const client = await debugClient(root);
  await runScenario(client, {
    language: "python",
    program: "app.py",
    source: "app.py",
    lines: { addBody: 2, addReturn: 3, call: 11, noCode: 17 },
    functionName: "add",
    thirdValue: "i",
    failure: { reason: "exception", id: /ValueError/, exitCode: 1 },
  });
});
