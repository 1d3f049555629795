// The built-in server of every other language on a small project of its own:
// Python (pyright), JavaScript (TypeScript's native server), Bash, YAML, JSON, CSS, HTML, Go
// (gopls) and C/C++ (clangd), each asked what it answers, with exact locations and names.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JS_PROJECT, OTHER_PROJECTS, PY_PROJECT } from "../fixtures/lsp-projects.ts";
import { lspFixture, type LspFixture } from "../helpers/lsp-fixture.ts";

let fx: LspFixture;

beforeAll(async () => {
  const js = Object.fromEntries(Object.entries(JS_PROJECT).map(([path, text]) => [`js/${path}`, text]));
  fx = await lspFixture({ ...PY_PROJECT, ...js, ...OTHER_PROJECTS });
});

afterAll(async () => {
  await fx?.stop();
});

describe("Python (pyright)", () => {
  // pyright's first answers: 16 s quiet on three test workers.
  it("definition, declaration, references, hover, type hierarchy and the type error", { timeout: 120_000 }, async () => {
    expect(await fx.tools.text("goToDefinition", { file: "zoo/app.py", line: 5, symbol: "chorus" })).toBe(
      "1 definition of `chorus` (zoo/app.py:5:12):\nzoo/animals.py:11:5  def chorus(animals: list[Animal]) -> str:",
    );
    expect(await fx.tools.text("goToDeclaration", { file: "zoo/app.py", line: 5, symbol: "Dog", verbosity: "minimal" })).toBe(
      "1 declaration of `Dog` (zoo/app.py:5:20):\nzoo/animals.py:6:7",
    );
    expect(await fx.tools.text("findReferences", { file: "zoo/animals.py", line: 11, symbol: "chorus", verbosity: "minimal" })).toBe(
      ["3 references to `chorus` in 2 files (complete):", "zoo/animals.py:11:5", "zoo/app.py:1:30", "zoo/app.py:5:12"].join("\n"),
    );
    expect(await fx.tools.text("getTypeSignature", { file: "zoo/app.py", line: 5, symbol: "chorus" })).toBe(
      "(function) def chorus(animals: list[Animal]) -> str",
    );
    const up = await fx.tools.text("getTypeHierarchy", { file: "zoo/animals.py", line: 6, symbol: "Dog", direction: "supertypes" });
    expect(up.split("\n").slice(0, 3)).toEqual([
      "Dog  zoo/animals.py:6:7  class Dog(Animal):",
      "  supertypes:",
      "    Animal  zoo/animals.py:1:7",
    ]);
    expect((await fx.tools.text("jumpToFirstError", { file: "zoo/app.py" })).split("\n")[0]).toMatch(
      /^zoo\/app\.py:8:14 error Pyright\(reportAssignmentType\): Type "Literal\['three'\]" is not assignable to declared type "int"/,
    );
    const calls = await fx.tools.text("getCallHierarchy", { file: "zoo/animals.py", line: 11, symbol: "chorus", direction: "incoming" });
    expect(calls.split("\n")).toEqual([
      "chorus function  zoo/animals.py:11:5",
      "  called by:",
      "    run function  zoo/app.py:4:5  (at line 5)",
    ]);
  });
});

describe("the other built-in servers", () => {
  it("JavaScript without a tsconfig (TypeScript's native server)", async () => {
    expect(await fx.tools.text("goToDefinition", { file: "js/lib/main.js", line: 3, symbol: "double" })).toBe(
      "1 definition of `double` (js/lib/main.js:3:13):\njs/lib/math.js:2:17  export function double(n) {",
    );
    expect(await fx.tools.text("getHover", { file: "js/lib/main.js", line: 3, symbol: "double" })).toContain("Doubles a number.");
  });

  it("Bash (bash-language-server)", async () => {
    expect(await fx.tools.text("goToDefinition", { file: "scripts/build.sh", line: 6, symbol: "greet", verbosity: "minimal" })).toBe(
      "1 definition of `greet` (scripts/build.sh:6:1):\nscripts/build.sh:2:1",
    );
    expect(await fx.tools.text("getDocumentSymbols", { file: "scripts/build.sh" })).toBe("scripts/build.sh (7 lines):\ngreet function :2");
  });

  it("YAML (yaml-language-server)", async () => {
    expect(await fx.tools.text("getDocumentSymbols", { file: "config/app.yaml" })).toBe(
      [
        "config/app.yaml (6 lines):",
        "server module :1-4",
        "  port number :2",
        "  host string :3",
        "features array :4-6",
        "  0 string :5",
      ].join("\n"),
    );
  });

  it("JSON (vscode-json-language-server): outline and a syntax error", async () => {
    expect(await fx.tools.text("getDocumentSymbols", { file: "config/settings.json" })).toBe(
      ["config/settings.json (5 lines):", "name string :2", "nested module :3", "  flag boolean :3"].join("\n"),
    );
    expect((await fx.tools.text("jumpToFirstError", { file: "config/broken.json" })).split("\n")[0]).toBe(
      "config/broken.json:1:10 error json(513): Property expected",
    );
  });

  it("CSS (vscode-css-language-server)", async () => {
    expect(await fx.tools.text("goToDefinition", { file: "web/site.css", line: 6, symbol: "--accent" })).toBe(
      "1 definition of `--accent` (web/site.css:6:14):\nweb/site.css:2:3  --accent: #c00;",
    );
    expect(await fx.tools.text("findReferences", { file: "web/site.css", line: 2, symbol: "--accent", verbosity: "minimal" })).toBe(
      "2 references to `--accent` in 1 file (complete):\nweb/site.css:2:3\nweb/site.css:6:14",
    );
  });

  it("HTML (vscode-html-language-server)", async () => {
    expect(await fx.tools.text("getDocumentSymbols", { file: "web/index.html" })).toBe(
      [
        "web/index.html (8 lines):",
        "html field :2",
        "html > head field :3",
        "head > title field :3",
        "html > body field :4",
        "body > h1#top field :5",
      ].join("\n"),
    );
  });

  it("Go (gopls from Debian's packages)", async () => {
    expect(await fx.tools.text("goToDefinition", { file: "gosrc/main.go", line: 6, symbol: "Add" })).toBe(
      "1 definition of `Add` (gosrc/main.go:6:14):\ngosrc/util.go:4:6  func Add(a, b int) int {",
    );
    expect(await fx.tools.text("findReferences", { file: "gosrc/util.go", line: 4, symbol: "Add", verbosity: "minimal" })).toBe(
      "2 references to `Add` in 2 files (complete):\ngosrc/main.go:6:14\ngosrc/util.go:4:6",
    );
    expect(await fx.tools.text("getHover", { file: "gosrc/main.go", line: 6, symbol: "Add" })).toContain("func Add(a int, b int) int");
  });

  it("C (clangd from Debian's packages): definition and declaration", async () => {
    expect(await fx.tools.text("goToDeclaration", { file: "csrc/main.c", line: 4, symbol: "add" })).toBe(
      "1 declaration of `add` (csrc/main.c:4:10):\ncsrc/util.h:3:5  int add(int a, int b);",
    );
    expect(await fx.tools.text("getTypeSignature", { file: "csrc/main.c", line: 4, symbol: "add" })).toContain("int add(int a, int b)");
  });

  it("C++ (clangd): implementations of a virtual method and the base of a struct", async () => {
    // This project has only compile_flags.txt (flags, no list of files), so clangd never indexes it:
    // the answer, right here and without waiting for an index, says it covers the open files only.
    const implementations = await fx.tools.text("findImplementations", {
      file: "cppsrc/shape.cpp",
      line: 3,
      symbol: "area",
      verbosity: "minimal",
    });
    expect(implementations).toMatch(
      /^PARTIAL: clangd has only compile_flags\.txt for cppsrc\/shape\.cpp, which gives flags but lists no files/,
    );
    expect(implementations).toContain("1 implementation of `area` (cppsrc/shape.cpp:3:15):\ncppsrc/shape.cpp:7:7");
    const up = await fx.tools.text("getTypeHierarchy", { file: "cppsrc/shape.cpp", line: 6, symbol: "Box", direction: "supertypes" });
    expect(up.split("\n").slice(0, 3)).toEqual([
      "Box  cppsrc/shape.cpp:6:8  struct Box : Shape {",
      "  supertypes:",
      "    Shape  cppsrc/shape.cpp:1:8",
    ]);
  });

  it("a file no server handles gets a clear error, and every server shows in the status", async () => {
    await fx.write("notes/readme.txt", "plain text\n");
    const failure = await fx.tools.failure("goToDefinition", { file: "notes/readme.txt", line: 1, symbol: "plain" });
    expect(failure).toMatchObject({ code: "no_language_server", error: "No language server handles notes/readme.txt" });
    const ids = fx.lsp
      .status()
      .servers.filter((s) => s.state === "running")
      .map((s) => s.id);
    expect(new Set(ids)).toEqual(
      new Set([
        "pyright",
        "tsgo",
        "bash-language-server",
        "yaml-language-server",
        "vscode-json-language-server",
        "vscode-css-language-server",
        "vscode-html-language-server",
        "gopls",
        "clangd",
      ]),
    );
  });
});
