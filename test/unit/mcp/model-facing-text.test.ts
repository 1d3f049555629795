// The small pieces that decide what a model reads: the result cap, "did you mean", name escaping,
// and the wire checks in front of them (Content-Type, params, ids of unparsed messages).
import { describe, expect, it } from "vitest";
import { closestName } from "../../../src/mcp/call/closest-name.ts";
import { errorResult, outcomeOf } from "../../../src/mcp/call/tool-result.ts";
import { readToolError } from "../../helpers/tool-error.ts";
import { decodeMessage, peekId } from "../../../src/mcp/protocol/decode.ts";
import { capStructured, capText, TRUNCATION_KEY } from "../../../src/tools/platform/result-cap.ts";
import { displayName } from "../../../src/lib/text/display-name.ts";
import { isJsonContentType } from "../../../src/transports/http/responses.ts";

describe("errorResult", () => {
  it("is plain text with real newlines, the suggestion on its last line, the code in _meta only", () => {
    const stderr = "git commit failed (exit 128): Author identity unknown\n\n*** Please tell me who you are.\n";
    const result = errorResult("git_failed", stderr, { suggestion: "Set user.name and user.email\n  with git config, then commit again." });
    expect(result.content).toEqual([
      {
        type: "text",
        text: "git commit failed (exit 128): Author identity unknown\n\n*** Please tell me who you are.\nSet user.name and user.email with git config, then commit again.",
      },
    ]);
    expect(result.content[0]?.type === "text" && result.content[0].text).not.toMatch(/[{}"]|\\n|git_failed/);
    expect(outcomeOf(result)).toBe("git_failed");
    expect(readToolError(result)).toEqual({
      code: "git_failed",
      error: "git commit failed (exit 128): Author identity unknown\n\n*** Please tell me who you are.",
      suggestion: "Set user.name and user.email with git config, then commit again.",
    });
  });

  it("leaves out an empty suggestion rather than sending a blank line", () => {
    const result = errorResult("timeout", "slow did not finish", { suggestion: " " });
    expect(result.content).toEqual([{ type: "text", text: "slow did not finish" }]);
  });
});

describe("capStructured", () => {
  it("leaves a fitting value alone", () => {
    const value = { files: ["a", "b"], truncated: false };
    expect(capStructured(value, 1000)).toBe(value);
  });

  it("shrinks the biggest array from its end and says what was kept", () => {
    const value = { files: Array.from({ length: 1000 }, (_, i) => `src/file-${i}.ts`), truncated: false, root: "." };
    const capped = capStructured(value, 2000);
    expect(capped).toBeDefined();
    if (!capped) return;
    expect(JSON.stringify(capped).length).toBeLessThanOrEqual(2000);
    const files = capped.files as string[];
    expect(files).toEqual(value.files.slice(0, files.length));
    expect(capped[TRUNCATION_KEY]).toBe(
      `Cut to the bridge's result cap of 2000 characters (files: ${files.length} of 1000 items kept); narrow the request to see the rest.`,
    );
    // The original is untouched.
    expect(value.files).toHaveLength(1000);
  });

  it("cuts long strings, never short ones, and nested arrays too", () => {
    const value = {
      tools: [
        { name: "a", description: "d".repeat(5000) },
        { name: "b", description: "short" },
      ],
    };
    const capped = capStructured(value, 1500);
    expect(capped).toBeDefined();
    expect(JSON.stringify(capped).length).toBeLessThanOrEqual(1500);
    const tools = (capped?.tools ?? []) as { name: string; description: string }[];
    expect(tools[0]?.name).toBe("a");
    expect(tools[0]?.description.endsWith("…")).toBe(true);
    expect(String(capped?.[TRUNCATION_KEY])).toMatch(/tools\[0\]\.description: \d+ of 5000 characters kept/);
  });

  it("gives up (the caller answers with an error) when nothing can be shrunk", () => {
    expect(capStructured({ a: "x".repeat(150), b: "y".repeat(150), c: "z".repeat(150) }, 100)).toBeUndefined();
  });
});

describe("capText", () => {
  it("cuts at the cap and says how much was left out", () => {
    expect(capText("abc", 3)).toBe("abc");
    expect(capText("abcdef", 3)).toMatch(/^abc\n\[truncated: 3 of 6 characters omitted/);
  });
});

describe("closestName", () => {
  const names = ["path", "startLine", "endLine", "maxBytes"];
  it.each([
    ["file_path", "path"],
    ["filePath", "path"],
    ["PATH", "path"],
    ["start_line", "startLine"],
    ["stratLine", "startLine"],
    ["max_bytes", "maxBytes"],
    ["limit", undefined],
    ["", undefined],
  ])("%s -> %s", (wrong, expected) => {
    expect(closestName(wrong, names)).toBe(expected);
  });
});

describe("displayName", () => {
  it("leaves ordinary names, unicode included, alone", () => {
    expect(displayName("src/naïve café.ts")).toBe("src/naïve café.ts");
    expect(displayName("日本語.md")).toBe("日本語.md");
  });
  it("escapes controls, bidi overrides, zero-width characters and the backslash", () => {
    expect(displayName("x\n  passwords.txt")).toBe("x\\n  passwords.txt");
    expect(displayName("a\tb\rc\u0007d\u007f")).toBe("a\\tb\\rc\\u{0007}d\\u{007F}");
    expect(displayName("invoice\u202Efdp.exe")).toBe("invoice\\u{202E}fdp.exe");
    expect(displayName("a\u200Bb\u2066c\uFEFF")).toBe("a\\u{200B}b\\u{2066}c\\u{FEFF}");
    expect(displayName("back\\slash")).toBe("back\\\\slash");
  });
});

describe("Content-Type for POST /mcp", () => {
  it.each([
    ["application/json", true],
    ["Application/JSON; charset=utf-8", true],
    ['application/json;charset="UTF-8"', true],
    ["application/jsonx", false],
    ["application/json-patch+json", false],
    ["application/json; charset=latin1", false],
    ["text/json", false],
    ["", false],
  ])("%s -> %s", (header, ok) => {
    expect(isJsonContentType(header)).toBe(ok);
  });
  it("refuses a missing header", () => {
    expect(isJsonContentType(null)).toBe(false);
  });
});

describe("decoding", () => {
  it("refuses array params where MCP wants an object", () => {
    const decoded = decodeMessage('{"jsonrpc":"2.0","id":1,"method":"ping","params":[]}');
    expect(decoded.ok).toBe(false);
    if (!decoded.ok)
      expect(decoded.response).toMatchObject({
        id: 1,
        error: { code: -32600, message: expect.stringMatching(/params must be an object/) },
      });
  });

  it("peeks the id of a message it will not parse, when it shows early", () => {
    expect(peekId('{"jsonrpc":"2.0","id":42,"method":"tools/call","params":{}}')).toBe(42);
    expect(peekId('{"id":"abc","jsonrpc":"2.0"}')).toBe("abc");
    expect(peekId('{"jsonrpc":"2.0","method":"notifications/cancelled"}')).toBeNull();
    expect(peekId('{"params":{"id":7},"id":8}')).toBeNull();
    expect(peekId("garbage")).toBeNull();
  });
});
