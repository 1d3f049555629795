// A file that mentions a name outside a references answer makes the answer partial when its errors
// may hide a use: an import it cannot resolve, or an error on a line that mentions the name. A type
// error elsewhere in it does not: on click, findReferences of echo was partial (and its rename
// refused) because testing.py, which names echo only in comments and a parameter, has an unrelated
// argument-type error. Real pyright.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lspFixture, type LspFixture } from "../helpers/lsp-fixture.ts";

const lines = (...l: string[]) => `${l.join("\n")}\n`;

describe("errors in files that mention a name outside its references", () => {
  let fx: LspFixture;
  beforeAll(async () => {
    fx = await lspFixture({
      "pyproject.toml": lines("[tool.pyright]", 'include = ["pkg"]'),
      "pkg/__init__.py": "",
      "pkg/util.py": lines("def echo(text: str) -> str:", "    return text"),
      "pkg/app.py": lines("from pkg.util import echo", "", "print(echo('a'))"),
      "pkg/other.py": lines("# echo is documented in util", "", "value: int = 'not an int'"),
      "pkg/broken.py": lines("import pkg.missing_module as m", "", "# echo may be reached through m", "m.run()"),
    });
  }, 120_000);
  afterAll(async () => {
    await fx?.stop();
  });

  it("names the file with an unresolved import as partial, not the one with an unrelated type error", async () => {
    const text = await fx.tools.text("findReferences", { file: "pkg/util.py", line: 1, symbol: "echo", verbosity: "minimal" });
    const head = text.split("\n")[0] ?? "";
    expect(head, text).toMatch(
      /^PARTIAL: 1 file\(s\) mention `echo` and have errors where pyright may not see its uses .*: pkg\/broken\.py;/,
    );
    expect(head, text).not.toContain("pkg/other.py");
    expect(text).toMatch(/^pkg\/app\.py:3:\d+$/m);
  }, 120_000);
});
