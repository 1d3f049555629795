import { describe, expect, it } from "vitest";
import {
  editorConfigStyle,
  formattingOverrides,
  parseJsonc,
  readProjectStyle,
  typeScriptSettings,
} from "../../../src/lsp/project-style.ts";

const reader = (files: Record<string, string>) => async (path: string) => files[path];

describe("the project's style", () => {
  it("reads .editorconfig sections that match a TypeScript file, later ones winning", () => {
    const text = [
      "root = true",
      "[*]",
      "indent_style = tab",
      "indent_size = 8",
      "[*.{ts,tsx}]",
      "indent_style = space",
      "indent_size = 2",
      "[*.py]",
      "indent_size = 4",
    ];
    expect(editorConfigStyle(text.join("\n"), "src/index.ts")).toEqual({ useTabs: false, indentSize: 2 });
    expect(editorConfigStyle("[*.md]\nindent_size = 4\n", "src/index.ts")).toEqual({});
    expect(editorConfigStyle("[src/**.ts]\nindent_style = tab\ntab_width = 3\n", "src/index.ts")).toEqual({ useTabs: true, indentSize: 3 });
  });

  it("gives formatting requests the file's indentation and newline rules, per file", async () => {
    const files = {
      ".editorconfig":
        "[*]\nindent_style = space\nindent_size = 2\ninsert_final_newline = true\ntrim_trailing_whitespace = true\n[Makefile]\nindent_style = tab\n",
      ".prettierrc": '{ "semi": false }',
    };
    expect(formattingOverrides(await readProjectStyle(reader(files), "src/a.ts"))).toEqual({
      tabSize: 2,
      insertSpaces: true,
      insertFinalNewline: true,
      trimTrailingWhitespace: true,
    });
    expect(formattingOverrides(await readProjectStyle(reader(files), "Makefile"))).toMatchObject({ insertSpaces: false });
    expect(formattingOverrides(await readProjectStyle(reader({ ".prettierrc": '{ "tabWidth": 4, "useTabs": true }' }), "a.ts"))).toEqual({
      tabSize: 4,
      insertSpaces: false,
    });
    expect(formattingOverrides({ from: [] })).toEqual({});
  });

  it("prettier's explicit values win over .editorconfig, its defaults fill only what is unsaid", async () => {
    const style = await readProjectStyle(
      reader({ ".editorconfig": "[*]\nindent_size = 4\n", ".prettierrc": '{ "semi": false, // no semicolons\n "singleQuote": true, }' }),
    );
    expect(style).toEqual({ indentSize: 4, useTabs: false, semicolons: false, singleQuote: true, from: [".editorconfig", ".prettierrc"] });
  });

  it("reads a YAML .prettierrc and package.json's prettier key", async () => {
    expect(await readProjectStyle(reader({ ".prettierrc": "semi: false\ntabWidth: 4 # wide\n" }))).toMatchObject({
      semicolons: false,
      indentSize: 4,
    });
    expect(await readProjectStyle(reader({ "package.json": JSON.stringify({ prettier: { useTabs: true } }) }))).toMatchObject({
      useTabs: true,
      semicolons: true,
      from: ["package.json"],
    });
  });

  it("reads biome's formatter (tabs and semicolons by default)", async () => {
    const biome = { formatter: { indentStyle: "space" }, javascript: { formatter: { semicolons: "asNeeded", quoteStyle: "single" } } };
    expect(await readProjectStyle(reader({ "biome.json": JSON.stringify(biome) }))).toEqual({
      indentSize: 2,
      useTabs: false,
      semicolons: false,
      singleQuote: true,
      from: ["biome.json"],
    });
    expect(await readProjectStyle(reader({ "biome.jsonc": "{ /* defaults */ }" }))).toMatchObject({ useTabs: true, semicolons: true });
  });

  it("says nothing when the project says nothing", async () => {
    expect(await readProjectStyle(reader({ "package.json": "{}" }))).toEqual({ from: [] });
    expect(typeScriptSettings({ from: [] })).toBeUndefined();
  });

  it("turns a style into TypeScript's format settings and preferences under each section its servers ask for", () => {
    const section = {
      format: { indentSize: 2, tabSize: 2, convertTabsToSpaces: true, semicolons: "remove" },
      preferences: { quoteStyle: "single" },
    };
    expect(typeScriptSettings({ indentSize: 2, useTabs: false, semicolons: false, singleQuote: true, from: [] })).toEqual({
      "js/ts": section,
      typescript: section,
      javascript: section,
    });
  });

  it("parses JSON with comments and trailing commas, keeping strings whole", () => {
    expect(parseJsonc('{ "a": "http://x/*y*/", /* c */ "b": [1, 2,], }')).toEqual({ a: "http://x/*y*/", b: [1, 2] });
    expect(parseJsonc("semi: false")).toBeUndefined();
    expect(parseJsonc("[1]")).toBeUndefined();
  });
});
