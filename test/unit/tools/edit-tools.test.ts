// editText, replaceBlock and previewEdit through the real dispatcher: the diff they answer with,
// all-or-none multi-edits, line endings, BOM and mode kept, stale versions and hard links refused,
// and the candidates a missed or ambiguous block shows.
import { chmod, link, mkdir, mkdtemp, readFile, readdir, realpath, rm, stat, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { dispatcher, type Dispatcher } from "../../helpers/tool-dispatch.ts";

let base: string;
let root: string;
let d: Dispatcher;

const at = (rel: string) => join(root, rel);
const lines = (n: number) => `${Array.from({ length: n }, (_, i) => `line ${i + 1}`).join("\n")}\n`;

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), "cib-edit-")));
  root = join(base, "ws");
  await mkdir(root);
  d = await dispatcher(root);
});

beforeEach(async () => {
  await writeFile(at("a.txt"), lines(10));
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

describe("editText", () => {
  it("replaces whole lines and answers with the unified diff and the new hash", async () => {
    const out = await d.text("editText", { filePath: "a.txt", edits: [{ type: "replace", line: 3, endLine: 4, text: "three and four" }] });
    expect(out).toMatch(
      /^Edited a\.txt \(\+1 -2\); hash [0-9a-f]{16}\n--- a\/a\.txt\n\+\+\+ b\/a\.txt\n@@ -1,7 \+1,6 @@\n line 1\n line 2\n-line 3\n-line 4\n\+three and four\n line 5\n/,
    );
    expect(await readFile(at("a.txt"), "utf8")).toBe(lines(10).replace("line 3\nline 4\n", "three and four\n"));
  });

  it("applies several edits against the original positions, in one write", async () => {
    await d.text("editText", {
      filePath: "a.txt",
      edits: [
        { type: "insert", line: 11, text: "appended" },
        { type: "delete", line: 1 },
        { type: "replace", line: 5, column: 6, endColumn: 7, text: "FIVE" },
        { type: "insert", line: 8, column: 1, text: ">> " },
      ],
    });
    expect(await readFile(at("a.txt"), "utf8")).toBe(
      "line 2\nline 3\nline 4\nline FIVE\nline 6\nline 7\n>> line 8\nline 9\nline 10\nappended\n",
    );
  });

  it("edits across lines with columns exactly, and keeps a file without a final newline open", async () => {
    await writeFile(at("open.txt"), "alpha\nbeta\ngamma");
    await d.text("editText", {
      filePath: "open.txt",
      edits: [{ type: "replace", line: 1, column: 3, endLine: 2, endColumn: 3, text: "-" }],
    });
    expect(await readFile(at("open.txt"), "utf8")).toBe("al-ta\ngamma");
    await d.text("editText", { filePath: "open.txt", edits: [{ type: "insert", line: 3, text: "delta" }] });
    expect(await readFile(at("open.txt"), "utf8")).toBe("al-ta\ngamma\ndelta");
    await d.text("editText", { filePath: "open.txt", edits: [{ type: "replace", line: 3, text: "DELTA\nEPSILON" }] });
    expect(await readFile(at("open.txt"), "utf8")).toBe("al-ta\ngamma\nDELTA\nEPSILON");
  });

  it("is all or none: one bad edit leaves the file byte-identical", async () => {
    const before = await readFile(at("a.txt"));
    const bad = [
      [
        { type: "replace", line: 2, text: "ok" },
        { type: "delete", line: 40 },
      ],
      [
        { type: "replace", line: 2, endLine: 4, text: "x" },
        { type: "delete", line: 3 },
      ],
      [
        { type: "insert", line: 2, text: "ok" },
        { type: "replace", line: 3, column: 99, text: "x" },
      ],
      [{ type: "replace", line: 5 }],
      [{ type: "delete", line: 5, text: "x" }],
      [{ type: "insert", line: 5, endLine: 6, text: "x" }],
      [{ type: "replace", line: 5, endLine: 4, text: "x" }],
    ];
    for (const edits of bad) {
      const failure = await d.failure("editText", { filePath: "a.txt", edits });
      expect(failure.code).toBe("invalid_edit");
      expect(failure.error).toMatch(/nothing was changed/);
    }
    expect(await readFile(at("a.txt"))).toEqual(before);
    expect((await d.failure("editText", { filePath: "a.txt", edits: [{ type: "delete", line: 40 }] })).error).toBe(
      "Edit 1: line 40 is past the end of the file (10 lines); nothing was changed",
    );
  });

  it("keeps CRLF, a BOM and the file's mode, and leaves no temporary file", async () => {
    await writeFile(at("win.txt"), "\uFEFFone\r\ntwo\r\nthree\r\n");
    await chmod(at("win.txt"), 0o640);
    await d.text("editText", { filePath: "win.txt", edits: [{ type: "replace", line: 2, text: "TWO\nand more" }] });
    expect(await readFile(at("win.txt"), "utf8")).toBe("\uFEFFone\r\nTWO\r\nand more\r\nthree\r\n");
    expect((await stat(at("win.txt"))).mode & 0o777).toBe(0o640);
    expect((await readdir(root)).filter((n) => n.endsWith(".tmp"))).toEqual([]);
  });

  it("gives text inserted into a file of mixed endings its most common ending", async () => {
    await writeFile(at("mixed.txt"), "a\r\nb\r\nc\nd\r\n");
    await d.text("editText", { filePath: "mixed.txt", edits: [{ type: "insert", line: 2, text: "new" }] });
    expect(await readFile(at("mixed.txt"), "utf8")).toBe("a\r\nnew\r\nb\r\nc\nd\r\n");
  });

  it("refuses a stale hash or mtime, a hard link, a binary and a missing file", async () => {
    const wrong = await d.failure("editText", {
      filePath: "a.txt",
      expectedHash: "0123456789abcdef",
      edits: [{ type: "delete", line: 1 }],
    });
    expect(wrong.code).toBe("file_changed");
    expect(wrong.suggestion).toMatch(/getBufferContent/);
    const hash = /hash ([0-9a-f]{16})/.exec(await d.text("getBufferContent", { filePath: "a.txt" }))?.[1];
    await d.text("editText", { filePath: "a.txt", expectedHash: hash, edits: [{ type: "delete", line: 1 }] });
    await utimes(at("a.txt"), new Date(1_000_000), new Date(1_000_000));
    expect((await d.failure("editText", { filePath: "a.txt", expectedMtime: 999, edits: [{ type: "delete", line: 1 }] })).code).toBe(
      "file_changed",
    );
    await d.text("editText", { filePath: "a.txt", expectedMtime: 1_000_000, edits: [{ type: "delete", line: 1 }] });
    await writeFile(join(base, "shared.txt"), "shared\n");
    await link(join(base, "shared.txt"), at("hard.txt"));
    expect((await d.failure("editText", { filePath: "hard.txt", edits: [{ type: "delete", line: 1 }] })).code).toBe("invalid_path");
    expect(await readFile(join(base, "shared.txt"), "utf8")).toBe("shared\n");
    await writeFile(at("bin.dat"), new Uint8Array([0x61, 0, 0x62]));
    expect((await d.failure("editText", { filePath: "bin.dat", edits: [{ type: "delete", line: 1 }] })).code).toBe("binary_file");
    expect((await d.failure("editText", { filePath: "nope.txt", edits: [{ type: "delete", line: 1 }] })).code).toBe("file_not_found");
  });
});

describe("replaceBlock", () => {
  it("replaces an exact block, CRLF files included", async () => {
    const out = await d.text("replaceBlock", { filePath: "a.txt", oldContent: "line 5\nline 6\n", newContent: "five-six\n" });
    expect(out).toMatch(/^Edited a\.txt \(\+1 -2\)/);
    expect(await readFile(at("a.txt"), "utf8")).toBe(lines(10).replace("line 5\nline 6\n", "five-six\n"));
    await writeFile(at("crlf.txt"), "x\r\ny\r\nz\r\n");
    await d.text("replaceBlock", { filePath: "crlf.txt", oldContent: "y\nz", newContent: "Y\nZ" });
    expect(await readFile(at("crlf.txt"), "utf8")).toBe("x\r\nY\r\nZ\r\n");
  });

  it("shows the nearest candidates, with line numbers, when the block is not there", async () => {
    await writeFile(at("code.ts"), "function add(a, b) {\n  return a + b;\n}\n\nfunction sub(a, b) {\n    return a - b;\n}\n");
    const miss = await d.failure("replaceBlock", {
      filePath: "code.ts",
      oldContent: "function sub(a, b) {\n  return a - b;\n}",
      newContent: "x",
    });
    expect(miss.code).toBe("match_not_found");
    expect(miss.error).toMatch(
      /^oldContent was not found in code\.ts; the nearest places:\nline 5 \(matches but for whitespace\):\n {2}5: function sub\(a, b\) \{\n {2}6: {5}return a - b;\n {2}7: \}\nline 1 \(\d+% similar\):/,
    );
    expect(await readFile(at("code.ts"), "utf8")).toMatch(/ {4}return a - b/);
  });

  it("refuses an ambiguous block, listing where it occurs; occurrence and replaceAll choose", async () => {
    await writeFile(at("rep.txt"), "x = 1\ny = 2\nx = 1\nz\nx = 1\n");
    const many = await d.failure("replaceBlock", { filePath: "rep.txt", oldContent: "x = 1", newContent: "x = 9" });
    expect(many).toMatchObject({
      code: "match_ambiguous",
      error: "oldContent occurs 3 times in rep.txt, at lines 1, 3, 5; nothing was changed",
    });
    await d.text("replaceBlock", { filePath: "rep.txt", oldContent: "x = 1", newContent: "x = 2", occurrence: 2 });
    expect(await readFile(at("rep.txt"), "utf8")).toBe("x = 1\ny = 2\nx = 2\nz\nx = 1\n");
    await d.text("replaceBlock", { filePath: "rep.txt", oldContent: "x = 1", newContent: "x = 0", replaceAll: true });
    expect(await readFile(at("rep.txt"), "utf8")).toBe("x = 0\ny = 2\nx = 2\nz\nx = 0\n");
    expect((await d.failure("replaceBlock", { filePath: "rep.txt", oldContent: "x = 0", newContent: "", occurrence: 3 })).code).toBe(
      "match_ambiguous",
    );
  });

  it("says so when the replacement changes nothing, and writes nothing", async () => {
    const before = (await stat(at("a.txt"))).mtimeMs;
    expect(await d.text("replaceBlock", { filePath: "a.txt", oldContent: "line 2", newContent: "line 2" })).toMatch(
      /^a\.txt: unchanged .*; nothing was written; hash/,
    );
    expect((await stat(at("a.txt"))).mtimeMs).toBe(before);
  });
});

describe("previewEdit", () => {
  it("shows the diff of any form of edit and writes nothing", async () => {
    const before = await readFile(at("a.txt"));
    expect(await d.text("previewEdit", { filePath: "a.txt", oldContent: "line 1\n", newContent: "first\n" })).toMatch(
      /^Would edit a\.txt \(\+1 -1\); hash \w+\n--- a\/a\.txt\n\+\+\+ b\/a\.txt\n@@ -1,4 \+1,4 @@\n-line 1\n\+first\n/,
    );
    expect(await d.text("previewEdit", { filePath: "a.txt", edits: [{ type: "delete", line: 10 }] })).toMatch(/-line 10$/);
    expect(await d.text("previewEdit", { filePath: "a.txt", content: "all new\n" })).toMatch(/^Would edit a\.txt \(\+1 -10\)/);
    expect(await readFile(at("a.txt"))).toEqual(before);
  });

  it("wants exactly one form of edit, checked as the real edit would be", async () => {
    expect((await d.failure("previewEdit", { filePath: "a.txt" })).error).toBe("No edit given");
    expect((await d.failure("previewEdit", { filePath: "a.txt", content: "x", oldContent: "y", newContent: "z" })).error).toBe(
      "More than one form of edit given",
    );
    expect((await d.failure("previewEdit", { filePath: "a.txt", oldContent: "absent", newContent: "" })).code).toBe("match_not_found");
    expect((await d.failure("previewEdit", { filePath: "a.txt", oldContent: "line 1" })).code).toBe("invalid_arguments");
  });
});
