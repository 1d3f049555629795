// searchAndReplace through the dispatcher: counts per file and diffs, dry runs that write nothing,
// groups in the replacement, all files or none, CRLF kept, and a hostile regex that finishes. The
// replacement alone is a unit test: test/unit/tools/replace-matches.test.ts.
import { chmod, mkdir, mkdtemp, readFile, realpath, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { dispatcher, type Dispatcher } from "../../helpers/tool-dispatch.ts";

let base: string | undefined;
let root: string;
let d: Dispatcher;

const at = (rel: string) => join(root, rel);
const files: Record<string, string> = {
  "src/a.ts": "const oldName = 1;\nexport { oldName };\n",
  "src/b.ts": "import { oldName } from './a';\r\nconsole.log(oldName);\r\n",
  "src/c.md": "oldName in prose\n",
  "lib/d.ts": "nothing here\n",
  ".gitignore": "ignored.ts\n",
  "src/ignored.ts": "oldName\n",
};

beforeEach(async () => {
  if (base !== undefined) await rm(base, { recursive: true, force: true });
  base = await realpath(await mkdtemp(join(tmpdir(), "cib-replace-")));
  root = join(base, "ws");
  for (const [rel, content] of Object.entries(files)) {
    await mkdir(join(at(rel), ".."), { recursive: true });
    await writeFile(at(rel), content);
  }
  d = await dispatcher(root);
});

afterAll(async () => {
  if (base !== undefined) await rm(base, { recursive: true, force: true });
});

describe("searchAndReplace", () => {
  it("previews with counts per file and diffs, and writes nothing on a dry run", async () => {
    const out = await d.text("searchAndReplace", { pattern: "oldName", replacement: "newName", include: ["*.ts"], dryRun: true });
    expect(out).toMatch(
      /^Would replace 4 matches in 2 of 3 files; nothing was written\.\nsrc\/a\.ts: 2\nsrc\/b\.ts: 2\n\nWould edit src\/a\.ts \(\+2 -2\); hash \w+\n--- a\/src\/a\.ts/,
    );
    expect(await readFile(at("src/a.ts"), "utf8")).toBe(files["src/a.ts"]);
  });

  it("replaces across files, keeping CRLF, leaving ignored files alone", async () => {
    const out = await d.text("searchAndReplace", { pattern: "oldName", replacement: "newName" });
    expect(out).toMatch(/^Replaced 5 matches in 3 of 4 files, all files at once\./);
    expect(await readFile(at("src/b.ts"), "utf8")).toBe("import { newName } from './a';\r\nconsole.log(newName);\r\n");
    expect(await readFile(at("src/ignored.ts"), "utf8")).toBe("oldName\n");
  });

  it("expands groups, by number and by name, and $$", async () => {
    await d.text("searchAndReplace", {
      pattern: "const (?P<name>\\w+) = (\\d+)",
      replacement: "let ${name}: number = $2; // $$",
      include: ["a.ts"],
    });
    expect(await readFile(at("src/a.ts"), "utf8")).toBe("let oldName: number = 1; // $;\nexport { oldName };\n");
    await d.text("searchAndReplace", { pattern: "$2", replacement: "$1", literal: true, include: ["a.ts"] });
    expect(await readFile(at("src/a.ts"), "utf8")).toBe("let oldName: number = 1; // $;\nexport { oldName };\n");
  });

  it("writes all files or none: a file that cannot be written stops every write", async () => {
    await chmod(at("src/c.md"), 0o444);
    await chmod(at("src"), 0o555);
    try {
      const failure = await d.call("searchAndReplace", { pattern: "oldName", replacement: "x" });
      // As root the directory is writable regardless; then the replace simply succeeds.
      if (failure.isError) for (const rel of ["src/a.ts", "src/b.ts", "src/c.md"]) expect(await readFile(at(rel), "utf8")).toBe(files[rel]);
    } finally {
      await chmod(at("src"), 0o755);
    }
  });

  it("answers when nothing matches, and refuses bad patterns", async () => {
    expect(await d.text("searchAndReplace", { pattern: "zzz", replacement: "y" })).toBe("Replaced 0 matches in 0 of 4 files.");
    expect((await d.failure("searchAndReplace", { pattern: "(a", replacement: "y" })).code).toBe("invalid_arguments");
  });

  it("finishes a hostile regex over a long line, and the file is unchanged when it does not match", async () => {
    await writeFile(at("src/evil.txt"), `${"a".repeat(50_000)}!\n`);
    expect(await d.text("searchAndReplace", { pattern: "(a+)+$", replacement: "x", include: ["evil.txt"] })).toBe(
      "Replaced 0 matches in 0 of 1 files.",
    );
    expect((await stat(at("src/evil.txt"))).size).toBe(50_002);
  });
});
