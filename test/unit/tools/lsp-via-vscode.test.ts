// The code-navigation and code-intelligence tools answered through VS Code's language features
// (extension/languageFeature) when the extension is connected: what the bridge asks (feature, the
// position placed on VS Code's text of the file), and what it prints from the answer (the headless
// shapes, with VS Code named). An in-process fake extension stands in for VS Code; the real one is
// driven in test/e2e/vscode-ide.test.ts (test/e2e/vscode-cases/editor.ts).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createNodeRuntime } from "../../../runtime/node.ts";
import type { ParamsOf, ResultOf, WireSymbol } from "../../../src/extension/protocol.ts";
import { toFileUri } from "../../../src/lib/paths/file-uri.ts";
import { connectedExtension } from "../../helpers/fake-extension.ts";
import { tempWorkspaces, type TempWorkspaces } from "../../helpers/temp-workspace.ts";
import { dispatcher } from "../../helpers/tool-dispatch.ts";

const A = "export function foo(x: number): number {\n  return bar(x) * 2;\n}\nfunction bar(y: number) {\n  return y;\n}\n";
// The buffer VS Code holds: one unsaved line above the saved text, so positions must come from it.
const A_UNSAVED = `// unsaved\n${A}`;
const B = 'import { foo } from "./a";\nexport const s = foo(1);\n';
// Mentions foo in a comment only: VS Code, once it has the file, finds no reference there.
const C = "// foo is tested elsewhere\nexport const c = 1;\n";

let spaces: TempWorkspaces;
let root: string;
let a: string;
let b: string;
beforeAll(async () => {
  spaces = await tempWorkspaces("lsp-vscode-");
  root = await spaces.make("ws", { "a.ts": A, "b.ts": B, "c.ts": C, "sub/d.ts": 'import { foo } from "../a";\nfoo(2);\n' });
  a = toFileUri(`${root}/a.ts`);
  b = toFileUri(`${root}/b.ts`);
});
afterAll(() => spaces.remove());

const at = (line: number, character: number, length = 3) => ({
  start: { line, character },
  end: { line, character: character + length },
});

type Feature = ParamsOf<"extension/languageFeature">;
type Answer = ResultOf<"extension/languageFeature">;

// Without rg: the cross-check of findReferences takes the built-in walk (unit tests start no process).
const real = createNodeRuntime();
const withoutRg = { ...real, which: async (cmd: string) => (cmd === "rg" ? undefined : real.which(cmd)) };

async function vsCode(answer: (p: Feature) => Answer, opts: { unreadable?: string } = {}) {
  const asked: Feature[] = [];
  const fake = connectedExtension({
    "extension/readDocument": (p) => {
      if (opts.unreadable !== undefined && p.filePath.endsWith(opts.unreadable)) throw new Error("VS Code cannot open it");
      read.push(p.filePath.slice(root.length + 1));
      return {
        text: p.filePath.endsWith("a.ts") ? A_UNSAVED : B,
        isDirty: p.filePath.endsWith("a.ts"),
        version: 2,
        languageId: "typescript",
        eol: "\n",
      };
    },
    "extension/languageFeature": (p) => {
      asked.push(p);
      return answer(p);
    },
  });
  const read: string[] = [];
  const d = await dispatcher(root, { extension: fake.client, runtime: withoutRg });
  return { d, asked, read };
}

const sym = (name: string, kind: string, uri: string, range: ReturnType<typeof at>, more: Partial<WireSymbol> = {}): WireSymbol => ({
  name,
  kind,
  uri,
  range,
  ...more,
});

describe("through VS Code when it is connected", () => {
  it("findReferences asks VS Code at the symbol's place in its buffer, and leaves the declaration out on request", async () => {
    const { d, asked } = await vsCode((p) =>
      p.feature === "definition"
        ? { places: [{ uri: a, range: at(1, 16) }] }
        : {
            places: [
              { uri: b, range: at(1, 16) },
              { uri: a, range: at(1, 16) },
              { uri: b, range: at(0, 9) },
            ],
          },
    );
    const result = await d.call("findReferences", { file: "a.ts", line: 2, symbol: "foo" });
    expect(result._meta).toEqual({ "claude-ide-bridge/backend": "extension" });
    // Line 2 of the buffer (the unsaved comment moved foo down one), column of `foo`.
    expect(asked[0]).toEqual({ feature: "references", uri: a, position: { line: 1, character: 16 } });
    expect(result.content[0]?.text).toBe(
      [
        "3 references to `foo` in 2 files (VS Code, complete):",
        "a.ts:2:17  return bar(x) * 2;",
        'b.ts:1:10  import { foo } from "./a";',
        "b.ts:2:17  export const s = foo(1);",
        "Also mentioned in (text that is not in this answer: comments, strings, docs, other symbols named `foo`): c.ts (1), sub/d.ts (2)",
      ].join("\n"),
    );
    const noDecl = await d.text("findReferences", { file: "a.ts", line: 2, symbol: "foo", includeDeclaration: false });
    expect(noDecl).toMatch(/^2 references to `foo` in 1 file \(VS Code, complete\):\nb\.ts:1:10/);
  });

  it("findReferences opens in VS Code the files that mention the name outside its answer, and asks again", async () => {
    // VS Code's TypeScript finds the use in d.ts only once d.ts is open (its project loaded).
    const d2 = toFileUri(`${root}/sub/d.ts`);
    let read: string[] = [];
    const { d, read: reads } = await vsCode(() => ({
      places: [
        { uri: a, range: at(1, 16) },
        { uri: b, range: at(1, 16) },
        ...(read.includes("sub/d.ts") ? [{ uri: d2, range: at(1, 0) }] : []),
      ],
    }));
    read = reads;
    const answer = await d.text("findReferences", { file: "a.ts", line: 2, symbol: "foo", verbosity: "minimal" });
    expect(reads).toEqual(expect.arrayContaining(["c.ts", "sub/d.ts"]));
    expect(answer).toBe(
      [
        "3 references to `foo` in 3 files (VS Code, complete):",
        "a.ts:2:17",
        "b.ts:2:17",
        "sub/d.ts:2:1",
        "Also mentioned in (text that is not in this answer: comments, strings, docs, other symbols named `foo`): c.ts (1)",
      ].join("\n"),
    );
  });

  it("findReferences through VS Code is partial, and names the file, when one that mentions the name cannot be opened", async () => {
    const { d } = await vsCode(
      () => ({
        places: [
          { uri: a, range: at(1, 16) },
          { uri: b, range: at(1, 16) },
        ],
      }),
      { unreadable: "c.ts" },
    );
    const answer = await d.text("findReferences", { file: "a.ts", line: 2, symbol: "foo", verbosity: "minimal" });
    expect(answer).toMatch(/^PARTIAL: 1 file\(s\) that mention `foo` were not checked in VS Code \(c\.ts\): its language features may not/);
    expect(answer).toMatch(/\n2 references to `foo` in 2 files \(VS Code, partial\):/);
  });

  it("getHover and getTypeSignature print VS Code's hovers as the headless tools print the server's", async () => {
    const { d, asked } = await vsCode(() => ({
      hover: ["```typescript\nfunction foo(x: number): number\n```", "Doubles it."],
    }));
    expect(await d.text("getHover", { file: "a.ts", line: 2, symbol: "foo" })).toBe(
      "```typescript\nfunction foo(x: number): number\n```\n\nDoubles it.",
    );
    expect(await d.text("getTypeSignature", { file: "a.ts", line: 2, symbol: "foo" })).toBe("function foo(x: number): number");
    expect(asked.map((p) => p.feature)).toEqual(["hover", "hover"]);
    const none = await vsCode(() => ({ hover: [] }));
    expect(await none.d.text("getHover", { file: "b.ts", line: 2, symbol: "s" })).toBe(
      "No hover information for `s` at b.ts:2:14 (VS Code).",
    );
  });

  it("getDocumentSymbols indents VS Code's outline by depth and counts what maxDepth cuts", async () => {
    const { d, asked } = await vsCode(() => ({
      symbols: [
        sym("Box", "class", a, { start: { line: 0, character: 0 }, end: { line: 5, character: 1 } }, { depth: 0, detail: "a box" }),
        sym("open", "method", a, at(1, 2), { depth: 1, containerName: "Box" }),
        sym("lid", "variable", a, at(2, 4), { depth: 2, containerName: "open" }),
        sym("bar", "function", a, at(4, 9), { depth: 0 }),
      ],
    }));
    expect(await d.text("getDocumentSymbols", { file: "a.ts", verbosity: "verbose" })).toBe(
      ["a.ts (8 lines, VS Code):", "Box class :1-6  a box", "  open method :2", "    lid variable :3", "bar function :5"].join("\n"),
    );
    expect(await d.text("getDocumentSymbols", { file: "a.ts", maxDepth: 2 })).toBe(
      ["a.ts (8 lines, VS Code):", "Box class :1-6", "  open method :2", "    … 1 more inside; raise maxDepth", "bar function :5"].join(
        "\n",
      ),
    );
    expect(asked[0]).toEqual({ feature: "documentSymbols", uri: a });
  });

  it("searchWorkspaceSymbols ranks VS Code's matches (exact, then prefix) and caps them", async () => {
    const { d, asked } = await vsCode(() => ({
      symbols: [sym("xfoo", "function", b, at(1, 0)), sym("foo", "function", a, at(0, 16)), sym("fooBar", "constant", b, at(1, 13))],
    }));
    expect(await d.text("searchWorkspaceSymbols", { query: "foo", maxResults: 2 })).toBe(
      [
        '3 symbols match "foo" (VS Code):',
        "foo function  a.ts:1:17",
        "fooBar constant  b.ts:2:14",
        "… 1 more; narrow the query or raise maxResults.",
      ].join("\n"),
    );
    expect(asked[0]).toEqual({ feature: "workspaceSymbols", query: "foo" });
  });

  it("getCallHierarchy prints the tree VS Code walked: callers with where they call, callees, cycles, cuts", async () => {
    const { d, asked } = await vsCode(() => ({
      root: sym("foo", "function", a, at(1, 16)),
      calls: [
        { direction: "incoming", depth: 1, item: sym("s", "constant", b, at(1, 13)), at: { line: 1, character: 17 } },
        { direction: "outgoing", depth: 1, item: sym("bar", "function", a, at(4, 9)) },
        { direction: "outgoing", depth: 2, item: sym("foo", "function", a, at(1, 16)), cycle: true },
      ],
      truncated: ["outgoing"],
    }));
    expect(await d.text("getCallHierarchy", { file: "a.ts", line: 2, symbol: "foo", depth: 2 })).toBe(
      [
        "foo function  a.ts:2:17  (VS Code)",
        "  called by:",
        "    s constant  b.ts:2:14  (at line 2)",
        "  calls:",
        "    bar function  a.ts:5:10",
        "      foo function  a.ts:2:17  (cycle)",
        "    … cut at 50; raise maxResults",
      ].join("\n"),
    );
    expect(asked[0]).toEqual({
      feature: "callHierarchy",
      uri: a,
      position: { line: 1, character: 16 },
      directions: ["incoming", "outgoing"],
      depth: 2,
      maxResults: 50,
    });
    const none = await vsCode(() => ({ calls: [] }));
    expect(await none.d.text("getCallHierarchy", { file: "b.ts", line: 2, symbol: "s", direction: "incoming" })).toBe(
      "`s` at b.ts:2:14 is not a function or method VS Code can follow (VS Code).",
    );
  });

  it("a symbol not on the given line of VS Code's buffer is a clear error, not a question asked at the wrong place", async () => {
    const { d, asked } = await vsCode(() => ({ places: [] }));
    const failure = await d.failure("findReferences", { file: "b.ts", line: 1, symbol: "nothere" });
    expect(failure.code).toBe("symbol_not_found");
    expect(asked).toEqual([]);
  });
});

describe("without VS Code", () => {
  it("the same tools answer headless (no language server here: they say so) and name the backend", async () => {
    const d = await dispatcher(root);
    for (const name of ["findReferences", "getHover", "getTypeSignature", "getCallHierarchy"]) {
      const result = await d.call(name, { file: "a.ts", line: 1, symbol: "foo" });
      expect(result._meta, name).toEqual({
        "claude-ide-bridge/backend": "headless",
        "claude-ide-bridge/error": { code: "no_language_server" },
      });
    }
    for (const [name, args] of [
      ["getDocumentSymbols", { file: "a.ts" }],
      ["searchWorkspaceSymbols", { query: "foo" }],
    ] as const)
      expect((await d.call(name, args))._meta?.["claude-ide-bridge/backend"], name).toBe("headless");
  });
});
