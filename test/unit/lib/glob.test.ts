// The glob matcher (src/glob): every feature and edge case as a table of pattern x path, the
// places it deliberately differs from the old regex translation, and every malformed pattern.
import { describe, expect, it } from "vitest";
import { ToolError } from "../../../src/errors.ts";
import { compileGlob } from "../../../src/lib/glob/index.ts";

/** [pattern, paths it matches, paths it does not]. */
type Row = [pattern: string, matches: string[], misses: string[]];

function checkRows(rows: Row[]): void {
  for (const [pattern, matches, misses] of rows) {
    const glob = compileGlob(pattern);
    for (const path of matches) expect(glob.matches(path), `${pattern} should match ${JSON.stringify(path)}`).toBe(true);
    for (const path of misses) expect(glob.matches(path), `${pattern} should not match ${JSON.stringify(path)}`).toBe(false);
  }
}

describe("compileGlob matches", () => {
  it("basenames at any depth when the pattern has no slash, whole relative paths otherwise", () => {
    checkRows([
      ["*.ts", ["a.ts", "src/a.ts", "src/deep/er/a.ts", ".ts"], ["a.tsx", "a.ts/b", "a.js"]],
      ["README.md", ["README.md", "docs/README.md"], ["README.mdx", "xREADME.md"]],
      ["a.b", ["a.b"], ["axb"]],
      ["src/*.ts", ["src/a.ts", "src/.ts"], ["src/x/a.ts", "lib/src/a.ts", "a.ts"]],
      ["./*.ts", ["a.ts", "x/a.ts"], ["a.tsx"]],
      ["./src/*.ts", ["src/a.ts"], ["x/src/a.ts"]],
      ["/src/*.ts", ["src/a.ts"], ["x/src/a.ts"]],
      ["//src/*.ts", ["src/a.ts"], []],
    ]);
    expect(compileGlob("*.ts").basenameOnly).toBe(true);
    expect(compileGlob("./*.ts").basenameOnly).toBe(true);
    expect(compileGlob("src/*.ts").basenameOnly).toBe(false);
    expect(compileGlob("{a,b/c}").basenameOnly).toBe(false);
  });

  it("* and ? within one segment", () => {
    checkRows([
      ["*", ["a", "a/b", ".hidden"], []],
      ["x/*", ["x/a", "x/"], ["x/a/b", "x"]],
      ["?.md", ["a.md", "x/a.md"], ["ab.md", ".md"]],
      ["x/a?c", ["x/abc"], ["x/a/c", "x/ac"]],
      ["x/*a*", ["x/a", "x/bab"], ["x/b/a"]],
    ]);
  });

  it("** at the start, middle and end, as a whole segment or not", () => {
    checkRows([
      ["**", ["a", "a/b/c"], []],
      ["**/b", ["b", "x/b", "x/y/b", ".x/b"], ["xb", "b/c"]],
      ["a/**/b", ["a/b", "a/x/b", "a/x/y/b", "a//b"], ["a/xb", "ab", "a/b/c", "x/a/b"]],
      ["a/**/**/b", ["a/b", "a/x/b", "a/x/y/z/b"], ["a/xb"]],
      ["a/**", ["a/b", "a/b/c", "a/"], ["a", "ab"]],
      ["**/node_modules/**", ["node_modules/x", "a/node_modules/b/c"], ["a/node_modules", "a/node_modules_x/b"]],
      ["src/**/*.test.{ts,tsx}", ["src/a.test.ts", "src/x/y/a.test.tsx"], ["src/a.test.js", "lib/a.test.ts", "src/a.ts"]],
      ["x/**y", ["x/y", "x/ay", "x/a/b/y"], ["x/a/b"]],
      ["x/a**/y", ["x/a/y", "x/ab/c/y"], ["x/a", "x/b/y"]],
      ["x/***/y", ["x/ab/y", "x/a/b/y"], ["x/y/y/z"]],
    ]);
  });

  it("character classes: sets, ranges, negation, ] and - as members", () => {
    checkRows([
      ["[abc].txt", ["a.txt", "c.txt"], ["d.txt", "ab.txt"]],
      ["[Rr]EADME.?d", ["README.md", "rEADME.md"], ["xEADME.md"]],
      ["[a-c]x", ["bx"], ["dx", "-x"]],
      ["[a-cx-z]", ["b", "y"], ["d", "w"]],
      ["[-a]x", ["-x", "ax"], ["bx"]],
      ["[a-]x", ["-x", "ax"], ["bx"]],
      ["[a-c-e]", ["b", "-", "e"], ["d"]],
      ["[]a]x", ["]x", "ax"], ["bx"]],
      ["[!abc]x", ["dx", ".x"], ["ax", "cx"]],
      ["[^abc]x", ["dx"], ["bx"]],
      ["[!]a]x", ["bx"], ["]x", "ax"]],
      ["[!a]*.md", ["b.md"], ["a.md"]],
      ["x/a[!b]c", ["x/aac"], ["x/a/c", "x/abc"]],
      ["x/a[/]c", ["x/a/c"], ["x/abc"]],
      ["[[]x", ["[x"], ["x"]],
      ["[\\]]x", ["]x"], ["\\x"]],
      ["[a\\-z]", ["a", "-", "z"], ["b", "\\"]],
      ["[!-a]", ["b", "0"], ["-", "a"]],
    ]);
  });

  it("\\ escapes the next character", () => {
    checkRows([
      ["a\\*b", ["a*b"], ["axb", "ab"]],
      ["a\\?", ["a?"], ["ab"]],
      ["\\[a]", ["[a]"], ["a"]],
      ["\\{a,b\\}", ["{a,b}"], ["a", "b"]],
      ["a\\}", ["a}"], ["a"]],
      ["\\\\x", ["\\x"], ["x"]],
      ["\\a\\.b", ["a.b"], ["axb"]],
      ["x/\\**", ["x/*a"], ["x/a"]],
    ]);
  });

  it("braces: alternation, nested, empty branches, containing / and any glob syntax", () => {
    checkRows([
      ["*.{ts,tsx}", ["a.ts", "x/a.tsx"], ["a.js", "a.ts.js"]],
      ["{x,{y,z}}.c", ["x.c", "z.c", "deep/z.c"], ["w.c", "{y,z}.c"]],
      ["{a,{b,{c,{d,e}}}}", ["a", "e"], ["f"]],
      ["{a,}b", ["b", "ab"], ["a"]],
      ["a{}b", ["ab"], ["a{}b"]],
      ["{a,b}{c,d}", ["ac", "bd"], ["ab", "a"]],
      ["{src,test}/**/*.ts", ["src/a.ts", "test/x/a.ts"], ["lib/a.ts", "src.ts"]],
      ["{a/b,c}/d", ["a/b/d", "c/d"], ["a/d", "b/d"]],
      ["{*.md,docs/**}", ["a.md", "docs/x/y.txt"], ["x/a.md", "doc/a"]],
      ["{[a,b],c}", [",", "a", "c"], ["[a", "b]"]],
      ["a,b", ["a,b"], ["a", "b"]],
      ["{**/a,b}", ["a", "x/a", "b"], ["x/b"]],
      ["src/{**/,}x", ["src/x", "src/a/b/x"], ["src/ax"]],
    ]);
  });

  it("code points, not UTF-16 units", () => {
    checkRows([
      ["?", ["😀", "é", "\ud800"], ["😀😀"]],
      ["??", ["ab", "😀😀"], ["😀"]],
      ["[😀é]", ["😀", "é"], ["e", "\ud83d"]],
      ["[α-ω]", ["λ"], ["a"]],
      ["[!a]", ["😀"], ["a"]],
      ["*.😀", ["a.😀", "x/😀.😀"], ["a.😁"]],
      ["x/**", ["x/a\nb"], []],
    ]);
  });
});

describe("compileGlob rejects", () => {
  /** [pattern, the whole message, or a part of it]. */
  const rows: [string, string | RegExp][] = [
    ["", "The glob pattern is empty"],
    ["./", 'The glob "./" is empty once its leading "./" and "/" are dropped'],
    ["//", /is empty/],
    ["src/[ab", 'Unclosed "[" at column 5 in glob "src/[ab"'],
    ["./x/[a", 'Unclosed "[" at column 5 in glob "./x/[a"'],
    ["😀[a", 'Unclosed "[" at column 2 in glob "😀[a"'],
    ["[a\\", 'Unclosed "[" at column 1'],
    ["[]", 'Empty character class "[]" at column 1 in glob "[]"'],
    ["x[!]", 'Empty character class "[!]" at column 2 in glob "x[!]"'],
    ["[^]", 'Empty character class "[^]"'],
    ["[z-a]", 'Reversed range "z-a" in a character class at column 2 in glob "[z-a]"'],
    ["{a,b", 'Unclosed "{" at column 1 in glob "{a,b"'],
    ["*.{ts,{tsx,js}", 'Unclosed "{" at column 3'],
    ["*.ts,tsx}", 'Unmatched "}" at column 9 in glob "*.ts,tsx}": there is no "{" before it'],
    ["{a}}", 'Unmatched "}" at column 4'],
    ["a\\", 'Lone "\\" at column 2 in glob "a\\": it ends the pattern, so it has nothing to escape'],
    [`${"{".repeat(101)}a${"}".repeat(101)}`, /is too complex: braces nest more than 100 deep at column 101/],
  ];

  it.each(rows)("%j with a clear message and a suggestion", (pattern, message) => {
    const err = caught(() => compileGlob(pattern));
    expect(err).toBeInstanceOf(ToolError);
    const toolError = err as ToolError;
    expect(toolError.code).toBe("invalid_arguments");
    if (typeof message === "string") expect(toolError.message).toContain(message);
    else expect(toolError.message).toMatch(message);
    expect(toolError.suggestion).toMatch(/\w{3,}/);
  });

  it("gives the reversed range the right way round, and says how to match a literal bracket", () => {
    expect((caught(() => compileGlob("[z-a]")) as ToolError).suggestion).toContain('"a-z"');
    expect((caught(() => compileGlob("src/[ab")) as ToolError).suggestion).toBe(
      'Close the character class with "]", or escape it as "\\[" to match a literal bracket.',
    );
  });

  it("cuts a long pattern in the message", () => {
    const message = (caught(() => compileGlob(`${"a".repeat(500)}[`)) as ToolError).message;
    expect(message).toContain("column 501");
    expect(message.length).toBeLessThan(200);
  });
});

function caught(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    return err;
  }
  throw new Error("expected a throw");
}
