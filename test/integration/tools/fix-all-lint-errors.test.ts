// fixAllLintErrors on a workspace with a stand-in eslint in node_modules/.bin, which the tool runs
// (split from test/unit/tools/quality-parsers.test.ts).
import { chmod, mkdir, mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dispatcher } from "../../helpers/tool-dispatch.ts";

let base: string;
beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), "cib-qparse-")));
});
afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

describe("fixAllLintErrors and getCodeCoverage on a workspace", () => {
  it("runs the project's eslint with --fix and lists what is left", async () => {
    const root = join(base, "lint");
    await mkdir(join(root, "node_modules", ".bin"), { recursive: true });
    await writeFile(join(root, "eslint.config.js"), "export default [];\n");
    await writeFile(join(root, "a.js"), "var x = 1;;\n");
    // A stand-in for eslint: with --fix-dry-run it reports the fixed text (the double semicolon
    // gone) and one problem left, as eslint -f json does; it never writes, the bridge does.
    const fake = join(root, "node_modules", ".bin", "eslint");
    await writeFile(
      fake,
      `#!/bin/sh\ncase "$*" in *--fix-dry-run*) out=',"output":"var x = 1;\\n"';; *) out='';; esac\nprintf '[{"filePath":"%s/a.js","messages":[{"ruleId":"no-var","severity":2,"message":"Unexpected var.","line":1,"column":1}]%s}]' "$PWD" "$out"\nexit 1\n`,
    );
    await chmod(fake, 0o755);
    const d = await dispatcher(root);
    const result = await d.data<{ diagnostics: unknown[]; sources: string[] }>("fixAllLintErrors", {});
    expect(result.sources).toEqual(["eslint"]);
    expect(result.diagnostics).toEqual([
      { file: "a.js", line: 1, column: 1, severity: "error", code: "no-var", message: "Unexpected var.", source: "eslint" },
    ]);
    expect(await readFile(join(root, "a.js"), "utf8")).toBe("var x = 1;\n");
    expect((await d.failure("fixAllLintErrors", { linter: "ruff" })).code).toBe("not_detected");
  });
});
