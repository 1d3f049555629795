// The headless debugger on C, through lldb's DAP adapter (Debian's lldb ships lldb-vscode-NN), on a
// program built here with gcc -g (lldb reports a death by signal as its number, SIGSEGV 11): the whole scenario of debug-scenario.ts in one debug session.
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, it } from "vitest";
import { debugClient } from "../../helpers/debug-harness.ts";
import { tempWorkspaces, type TempWorkspaces } from "../../helpers/temp-workspace.ts";
import { runScenario } from "./debug-scenario.ts";

const PROGRAM = `#include <stdio.h>

int add(int a, int b) {
    int total = a + b;
    return total;
}

int main(void) {
    const char *api_token = "sk-abcdefghijklmnopqrstuvwx1234567890";
    int values[5] = {1, 2, 3, 4, 5};
    int acc = 0;
    for (int i = 0; i < 5; i++) {
        acc = add(acc, values[i]);
    }
    printf("acc is %d\\n", acc);
    fflush(stdout);
    int *p = (int *)0;
    return *p + (api_token[0] == 's');
}
/* nothing runs below this line */
`;

let temp: TempWorkspaces;
let root: string;

beforeAll(async () => {
  temp = await tempWorkspaces("debug-c-");
  root = await temp.make("ws", { "app.c": PROGRAM });
  execFileSync("gcc", ["-g", "-O0", "-o", join(root, "app"), join(root, "app.c")]);
});
afterAll(() => temp.remove());

it("debugs a C program end to end, and a disconnect leaves no process", { timeout: 120_000 }, async () => {
  const client = await debugClient(root);
  await runScenario(client, {
    language: "c",
    program: "app",
    source: "app.c",
    lines: { addBody: 4, addReturn: 5, call: 13, noCode: 20 },
    functionName: "add",
    thirdValue: "values[i]",
    failure: { reason: "exception", id: /signal/, exitCode: 11 },
  });
});
