// ctx.fs beyond what the read-only tools exercise: ranged line reads in chunks, atomic writes through
// the checked parent directory, and the write rules (hard links, directories, existing files).
import { link, mkdir, mkdtemp, readFile, readdir, realpath, rm, stat, symlink, writeFile, chmod } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readLines, type ByteReader } from "../../../src/workspace/read-lines.ts";
import { makeToolContext, type TestToolContext } from "../../helpers/tool-context.ts";

let base: string;
let root: string;
let ctx: TestToolContext;

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), "cib-wsfs-")));
  root = join(base, "ws");
  await mkdir(join(root, "src"), { recursive: true });
  await writeFile(join(base, "outside.txt"), "outside");
  ctx = await makeToolContext(root);
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

/** A reader over bytes in memory that records how far it was asked to read. */
function memoryReader(text: string): ByteReader & { furthest: number } {
  const bytes = new TextEncoder().encode(text);
  const reader = {
    furthest: 0,
    async read(position: number, length: number) {
      reader.furthest = Math.max(reader.furthest, Math.min(bytes.length, position + length));
      return bytes.slice(position, position + length);
    },
  };
  return reader;
}

describe("readLines", () => {
  const all = { startLine: 1, endLine: undefined, maxLines: 1000, maxBytes: 1 << 20 };
  it("counts a last line without a newline, not an extra one after a final newline", async () => {
    expect(await readLines(memoryReader("a\nb\nc"), 5, all)).toMatchObject({ lines: ["a", "b", "c"], totalLines: 3, stoppedBy: "end" });
    expect(await readLines(memoryReader("a\nb\n"), 4, all)).toMatchObject({ lines: ["a", "b"], totalLines: 2 });
    expect(await readLines(memoryReader(""), 0, all)).toMatchObject({ lines: [], totalLines: 0, endLine: 0 });
    expect(await readLines(memoryReader("a\r\nb\r\n"), 6, all)).toMatchObject({ lines: ["a\r", "b\r"] });
  });

  it("reads only up to the range when the rest is big, across chunk boundaries", async () => {
    const line = `${"y".repeat(999)}\n`;
    const text = line.repeat(10_000); // 10 MB
    const reader = memoryReader(text);
    const read = await readLines(reader, text.length, { startLine: 100, endLine: 101, maxLines: 2000, maxBytes: 1 << 20 });
    expect(read.lines).toEqual(["y".repeat(999), "y".repeat(999)]);
    expect(read.totalLines).toBeUndefined();
    expect(reader.furthest).toBeLessThanOrEqual(200 * 1024);
  });

  it("counts the total when the rest is small, and stops at the byte budget", async () => {
    const text = Array.from({ length: 100 }, (_, i) => `line ${i + 1}`).join("\n");
    expect(
      await readLines(memoryReader(text), text.length, { startLine: 1, endLine: undefined, maxLines: 10, maxBytes: 1000 }),
    ).toMatchObject({ endLine: 10, stoppedBy: "maxLines", totalLines: 100 });
    expect(
      await readLines(memoryReader(text), text.length, { startLine: 5, endLine: undefined, maxLines: 50, maxBytes: 14 }),
    ).toMatchObject({ lines: ["line 5", "line 6"], stoppedBy: "maxBytes", totalLines: 100 });
  });

  it("cuts a first line longer than the budget at a character boundary", async () => {
    const read = await readLines(memoryReader("ééé\nx"), 8, { startLine: 1, endLine: undefined, maxLines: 10, maxBytes: 3 });
    expect(read).toMatchObject({ lines: ["é"], partialLine: true, stoppedBy: "maxBytes", totalLines: 2 });
  });
});

describe("ctx.fs.writeFile", () => {
  it("writes atomically through the parent directory, keeping a replaced file's mode", async () => {
    await ctx.fs.writeFile("src/new.ts", "export {};\n");
    expect(await readFile(join(root, "src", "new.ts"), "utf8")).toBe("export {};\n");
    await chmod(join(root, "src", "new.ts"), 0o750);
    await ctx.fs.writeFile("src/new.ts", "changed\n");
    expect((await stat(join(root, "src", "new.ts"))).mode & 0o777).toBe(0o750);
    expect((await readdir(join(root, "src"))).filter((n) => n.endsWith(".tmp"))).toEqual([]);
  });

  it("refuses hard links, directories, existing files with createOnly, and a missing parent", async () => {
    await link(join(base, "outside.txt"), join(root, "linked.txt"));
    expect(await ctx.fs.writeFile("linked.txt", "x").catch((e: { code: string }) => e.code)).toBe("invalid_path");
    expect(await readFile(join(base, "outside.txt"), "utf8")).toBe("outside");
    expect(await ctx.fs.writeFile("src", "x").catch((e: { code: string }) => e.code)).toBe("not_a_file");
    await ctx.fs.writeFile("once.txt", "1", { createOnly: true });
    expect(await ctx.fs.writeFile("once.txt", "2", { createOnly: true }).catch((e: { code: string }) => e.code)).toBe("file_exists");
    expect(await readFile(join(root, "once.txt"), "utf8")).toBe("1");
    expect(await ctx.fs.writeFile("no/such/dir/f.txt", "x").catch((e: { message: string }) => e.message)).toBe(
      "The directory of no/such/dir/f.txt does not exist",
    );
  });

  it("never writes outside, through a symlinked parent or file", async () => {
    await mkdir(join(base, "elsewhere"));
    await symlink(join(base, "elsewhere"), join(root, "out"));
    await symlink(join(base, "outside.txt"), join(root, "out-file"));
    expect(await ctx.fs.writeFile("out/x.txt", "x").catch((e: { code: string }) => e.code)).toBe("outside_workspace");
    expect(await ctx.fs.writeFile("out-file", "x").catch((e: { code: string }) => e.code)).toBe("outside_workspace");
    expect(await readdir(join(base, "elsewhere"))).toEqual([]);
    expect(await readFile(join(base, "outside.txt"), "utf8")).toBe("outside");
  });
});
