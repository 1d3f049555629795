// getDiagnostics through the checker CLIs alone (no language server is given to the dispatcher):
// pyright --outputjson from this repo's node_modules, and go vet when go is installed, on
// workspaces the tests build. Their findings come back in the one diagnostic shape.
import { symlink } from "node:fs/promises";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Diagnostic } from "../../src/services/diagnostics/diagnostic.ts";
import { tempWorkspaces, type TempWorkspaces } from "../helpers/temp-workspace.ts";
import { missingProgram } from "../helpers/missing-program.ts";
import { dispatcher } from "../helpers/tool-dispatch.ts";

interface Diagnostics {
  diagnostics: Diagnostic[];
  sources: string[];
  skipped: { source: string; reason: string }[];
}

const REPO = resolve(import.meta.dirname, "../..");
let temp: TempWorkspaces;
beforeAll(async () => {
  temp = await tempWorkspaces("cib-checkers-");
});
afterAll(async () => {
  await temp.remove();
});

describe("getDiagnostics with pyright's CLI", () => {
  it("reads pyright --outputjson into 1-based diagnostics with the rule as code", { timeout: 120_000 }, async () => {
    const root = await temp.make("pyright-cli", {
      "pyrightconfig.json": "{}\n",
      "app.py": 'def double(n: int) -> int:\n    return n * 2\n\n\ntotal: int = double("two")\n',
    });
    await symlink(join(REPO, "node_modules"), join(root, "node_modules"));
    const d = await dispatcher(root);
    const result = await d.data<Diagnostics>("getDiagnostics", { file: "app.py" });
    expect(result.sources).toEqual(["pyright"]);
    expect(result.diagnostics).toEqual([
      expect.objectContaining({ file: "app.py", line: 5, column: 21, severity: "error", code: "reportArgumentType", source: "pyright" }),
    ]);
  });
});

const noGo = missingProgram("go", ["version"]);
describe.skipIf(noGo !== undefined)(`getDiagnostics with go vet${noGo === undefined ? "" : ` (skipped: ${noGo})`}`, () => {
  it("reads go vet's findings with file and line", { timeout: 180_000 }, async () => {
    const root = await temp.make("go-vet", {
      "go.mod": "module example.com/v\n\ngo 1.19\n",
      "main.go": 'package main\n\nimport "fmt"\n\nfunc main() {\n\tfmt.Printf("%d\\n", "text")\n}\n',
    });
    const d = await dispatcher(root);
    const result = await d.data<Diagnostics>("getDiagnostics", {});
    expect(result.sources).toEqual(["go vet"]);
    expect(result.diagnostics).toEqual([
      expect.objectContaining({ file: "main.go", line: 6, source: "go vet", message: expect.stringMatching(/wrong type/) }),
    ]);
  });
});
