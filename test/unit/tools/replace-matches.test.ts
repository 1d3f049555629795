// The replacement behind searchAndReplace, in-process: every match left to right, empty matches as
// Rust's replace_all makes them, groups. The tool itself runs rg and is in
// test/integration/tools/search-replace.test.ts.
import { describe, expect, it } from "vitest";
import { compileRegex } from "../../../src/lib/regex/index.ts";
import { replaceMatches } from "../../../src/tools/search/replace-matches.ts";

describe("replaceMatches", () => {
  const replace = (pattern: string, text: string, replacement: string) =>
    replaceMatches(text, compileRegex(pattern), { replacement, literal: false });
  it("replaces every match left to right, empty matches as Rust's replace_all does", () => {
    expect(replace("a", "banana", "o")).toEqual({ text: "bonono", count: 3 });
    expect(replace("x*", "abc", "-")).toEqual({ text: "-a-b-c-", count: 4 });
    expect(replace("a*", "baaac", "-")).toEqual({ text: "-b-c-", count: 3 });
    expect(replace("(\\w+)@(\\w+)", "me@host you@there", "$2 at $1")).toEqual({ text: "host at me there at you", count: 2 });
    expect(replace("(a)|b", "ab", "[$1]")).toEqual({ text: "[a][]", count: 2 });
    expect(replace("o", "fo😀o", "0")).toEqual({ text: "f0😀0", count: 2 });
  });
});
