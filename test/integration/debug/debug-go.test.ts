// The headless debugger on Go, through delve's DAP server (Debian's delve, `dlv dap` over TCP), on a
// source file delve builds itself: the whole scenario of debug-scenario.ts in one debug session. An
// unrecovered panic stops the program.
import { afterAll, beforeAll, it } from "vitest";
import { debugClient } from "../../helpers/debug-harness.ts";
import { tempWorkspaces, type TempWorkspaces } from "../../helpers/temp-workspace.ts";
import { runScenario } from "./debug-scenario.ts";

const PROGRAM = `package main

import "fmt"

func add(a int, b int) (total int) {
	total = a + b
	return total
}

func main() {
	api_token := "sk-abcdefghijklmnopqrstuvwx1234567890"
	values := []int{1, 2, 3, 4, 5}
	acc := 0
	for _, i := range values {
		acc = add(acc, i)
	}
	fmt.Println("acc is", acc)
	panic(fmt.Sprintf("boom %d %d", acc, len(api_token)))
}

// nothing runs below this line
`;

let temp: TempWorkspaces;
let root: string;

beforeAll(async () => {
  temp = await tempWorkspaces("debug-go-");
  root = await temp.make("ws", { "go.mod": "module example.com/app\n\ngo 1.19\n", "main.go": PROGRAM });
});
afterAll(() => temp.remove());

it("debugs a Go program end to end, and a disconnect leaves no process", { timeout: 180_000 }, async () => {
  const client = await debugClient(root);
  await runScenario(client, {
    language: "go",
    program: "main.go",
    source: "main.go",
    // A step into a Go function stops on its declaration line, at the end of its prologue.
    lines: { addBody: 6, addReturn: 7, call: 15, noCode: 21, stepIn: 5 },
    functionName: "main.add",
    thirdValue: "i",
    // Delve 1.20 ends the session without an exited event: the exit code (2) is not known, and not made up.
    failure: { reason: "exception", id: /panic/, exitCode: undefined },
  });
});
