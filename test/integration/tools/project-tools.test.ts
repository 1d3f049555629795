// findRelatedTests, getProjectContext and contextBundle on real workspaces, with git and without.
import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, realpath, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dispatcher, type Dispatcher } from "../../helpers/tool-dispatch.ts";

let base: string;
let root: string;
let d: Dispatcher;

const tree: Record<string, string> = {
  "package.json": JSON.stringify({ name: "proj", devDependencies: { typescript: "5" } }),
  "README.md": "# Proj\n\nDoes things.\n",
  "CLAUDE.md": "Be careful.\n",
  "src/strings.ts": "export const upper = (s: string) => s.toUpperCase();\n",
  "src/util/index.ts": "export * from './dates';\n",
  "src/strings.test.ts": "import { upper } from './strings';\n",
  "test/strings.ts": "// a test by its directory\n",
  "test/uses-strings.spec.ts": "import { upper } from '../src/strings.js';\n",
  "test/util.test.ts": "import x from '../src/util';\n",
  "test/other.test.ts": "import { y } from './elsewhere';\n",
  "py/pkg/mod.py": "def f(): pass\n",
  "py/tests/test_mod.py": "from pkg.mod import f\n",
  "py/tests/test_other.py": "import pkg.mod\n",
  "go/parse.go": "package parse\n",
  "go/parse_test.go": "package parse\n",
  "java/Widget.java": "class Widget {}\n",
  "java/WidgetTest.java": "class WidgetTest {}\n",
};

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), "cib-project-")));
  root = join(base, "ws");
  for (const [rel, content] of Object.entries(tree)) {
    await mkdir(join(root, rel, ".."), { recursive: true });
    await writeFile(join(root, rel), content);
  }
  d = await dispatcher(root);
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

describe("findRelatedTests", () => {
  it("finds tests by name and by import, the ones found both ways first", async () => {
    expect(await d.data("findRelatedTests", { filePath: "src/strings.ts" })).toEqual({
      file: "src/strings.ts",
      tests: [
        { path: "src/strings.test.ts", by: ["name", "import"] },
        { path: "test/strings.ts", by: ["name"] },
        { path: "test/uses-strings.spec.ts", by: ["import"] },
      ],
      testFilesSearched: 9,
    });
    expect((await d.data<{ tests: unknown[] }>("findRelatedTests", { filePath: "src/util/index.ts" })).tests).toEqual([
      { path: "test/util.test.ts", by: ["import"] },
    ]);
  });

  it("knows Python, Go and Java conventions", async () => {
    expect((await d.data<{ tests: unknown[] }>("findRelatedTests", { filePath: "py/pkg/mod.py" })).tests).toEqual([
      { path: "py/tests/test_mod.py", by: ["name", "import"] },
      { path: "py/tests/test_other.py", by: ["import"] },
    ]);
    expect((await d.data<{ tests: unknown[] }>("findRelatedTests", { filePath: "go/parse.go" })).tests).toEqual([
      { path: "go/parse_test.go", by: ["name"] },
    ]);
    expect((await d.data<{ tests: unknown[] }>("findRelatedTests", { filePath: "java/Widget.java" })).tests).toEqual([
      { path: "java/WidgetTest.java", by: ["name"] },
    ]);
  });

  it("fails on a missing file or a directory", async () => {
    expect((await d.failure("findRelatedTests", { filePath: "src/nope.ts" })).code).toBe("file_not_found");
    expect((await d.failure("findRelatedTests", { filePath: "src" })).code).toBe("not_a_file");
  });
});

describe("getProjectContext", () => {
  it("gives kind, key files, layout and recent changes by mtime without a repository", async () => {
    await utimes(join(root, "go/parse.go"), new Date(), new Date(Date.now() + 60_000));
    const out = await d.data<Record<string, unknown>>("getProjectContext");
    expect(out).toMatchObject({
      name: "proj",
      kinds: ["node", "typescript"],
      keyFiles: ["CLAUDE.md", "README.md", "package.json"],
      fileCount: 17,
    });
    expect(out.layout).toEqual([
      { path: "test/", files: 4 },
      { path: ".", files: 3 },
      { path: "py/", files: 3 },
      { path: "src/", files: 3 },
      { path: "go/", files: 2 },
      { path: "java/", files: 2 },
    ]);
    const recent = out.recentChanges as { source: string; changes: { path: string }[] };
    expect(recent.source).toBe("mtime");
    expect(recent.changes[0]?.path).toBe("go/parse.go");
  });

  it("takes recent changes from git when the root is a repository", async () => {
    const git = (...args: string[]) =>
      execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], { cwd: root, stdio: "ignore" });
    git("init", "-q", "-b", "main");
    git("add", ".");
    git("commit", "-qm", "one");
    await writeFile(join(root, "src/strings.ts"), "changed\n");
    git("commit", "-qam", "two");
    const recent = (
      await d.data<{ recentChanges: { source: string; branch: string; changes: { path: string; when: string }[] } }>("getProjectContext")
    ).recentChanges;
    expect(recent).toMatchObject({ source: "git", branch: "main" });
    expect(recent.changes[0]).toMatchObject({ path: "src/strings.ts", when: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
    expect(recent.changes).toHaveLength(15);
  });
});

describe("contextBundle", () => {
  it("bundles context, git status, the handoff note, plans and the guide in one text", async () => {
    await writeFile(join(root, "src/new.ts"), "x\n");
    await d.data("setHandoffNote", { note: "Next: wire the parser." });
    await d.data("createPlan", { title: "Ship it", steps: ["a", "b"] });
    const out = await d.text("contextBundle");
    expect(out).toMatch(/^# proj \(node, typescript\), \d+ files\n\n## Key files\nCLAUDE\.md, README\.md, package\.json\n\n## Layout\n/);
    expect(out).toMatch(/## Recent changes \(git on main\)\n\S+ src\/strings\.ts/);
    expect(out).toMatch(/## Git status\n## main\n\?\? src\/new\.ts/);
    expect(out).toMatch(/## Handoff note \(\d{4}-[^)]+\)\nNext: wire the parser\./);
    expect(out).toMatch(/## Active plans\nship-it: Ship it \(0\/2 done\)/);
    expect(out).toMatch(/## CLAUDE\.md \(first 1 lines\)\nBe careful\.$/);
  });
});
