// The analysis tools on real language servers (tsgo, pyright, gopls: each started once, for the
// whole file) over one workspace shaped like a small shop with known answers: an entry point named
// in package.json, an export nothing uses, an orphan file, a plugin folder loaded by a computed
// dynamic import, a module cycle, a vitest suite. Generated tests are checked by each language's
// own checker (tsc, pytest's collection, go vet), and a real Node stack through esbuild's source
// map is traced back to the TypeScript line.
import { execFile } from "node:child_process";
import { mkdir, readFile, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SHOP } from "../fixtures/analysis-shop.ts";
import { lspFixture, type LspFixture } from "../helpers/lsp-fixture.ts";

const SLOW = 180_000;
/** generateTests runs three checkers (tsc, pytest, go vet: a compile) on top of the servers. */
const CHECKERS = 300_000;
const run = promisify(execFile);
const TSC = join(process.cwd(), `node_modules/@typescript/typescript-${process.platform}-${process.arch}/lib/tsc`);

describe("analysis tools on TypeScript (tsgo), Python (pyright) and Go (gopls)", () => {
  let fx: LspFixture;
  const read = (path: string) => readFile(join(fx.root, path), "utf8");

  beforeAll(async () => {
    fx = await lspFixture(SHOP);
    // The generated vitest file is type-checked against the real vitest.
    await mkdir(join(fx.root, "node_modules"));
    await symlink(join(process.cwd(), "node_modules/vitest"), join(fx.root, "node_modules/vitest"));
  }, SLOW);
  afterAll(async () => {
    await fx?.stop();
  });

  it(
    "detectUnusedCode: the unused export and the orphan file, never the entry point, the test or the dynamically loaded plugin",
    async () => {
      const text = await fx.tools.text("detectUnusedCode", { path: "src" });
      const lines = text.split("\n");
      expect(lines).toContain("  src/cart.ts:9  unusedHelper: exported, used nowhere");
      expect(lines).toContain("  src/orphan.ts:1  orphan: exported, used nowhere");
      expect(lines).toContain("  src/orphan.ts  no workspace file imports it");
      expect(text).not.toMatch(/src\/index\.ts:\d+\s+main/);
      expect(text).not.toMatch(/fancy: | {2}src\/pricing\.ts:\d+ {2}price: /);
      expect(text).toContain("src/index.ts was not examined: package.json main (dist/index.js, built from it)");
      expect(text).toContain("src/plugins/fancy.ts was not examined: its folder has a dynamic import of a computed name");
    },
    SLOW,
  );

  it(
    "getChangeImpact: a symbol's users riskiest first and the test that reaches them",
    async () => {
      const text = await fx.tools.text("getChangeImpact", { file: "src/pricing.ts", symbol: "price" });
      expect(text).toContain(
        "Blast radius: 1 declaration(s) touched, 1 reference(s) in 1 other file(s) (1 source, 0 test), 1 test file(s) covering (complete).",
      );
      expect(text).toContain("  price  src/pricing.ts:4  1 reference(s); called by total src/cart.ts:5");
      expect(text).toContain("  src/cart.ts  1 use(s) of price");
      expect(text).toContain("  test/cart.test.ts  through src/cart.ts");

      // Given nothing, the change is the working tree's diff against HEAD.
      const git = (...args: string[]) => run("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], { cwd: fx.root });
      await git("init", "-q");
      await git("add", "-A");
      await git("commit", "-qm", "shop");
      const before = await read("src/pricing.ts");
      await fx.write("src/pricing.ts", before.replace("no price for", "unknown item"));
      const diff = await fx.tools.text("getChangeImpact", {});
      await fx.write("src/pricing.ts", before);
      expect(diff.split("\n")[0]).toBe("Change: src/pricing.ts:6");
      expect(diff).toContain("  price  src/pricing.ts:4  1 reference(s); called by total src/cart.ts:5");
    },
    SLOW,
  );

  it(
    "getArchitectureContext: modules, their dependencies, the module cycle and the entry point",
    async () => {
      const text = await fx.tools.text("getArchitectureContext", { path: "src" });
      expect(text).toContain("  src/index.ts  (package.json main (dist/index.js, built from it))");
      expect(text).toMatch(/ {2}src {2}\(4 file\(s\); used by 1\) -> src\/plugins \(1\)/);
      expect(text).toMatch(/Module cycles \(1\):\n {2}(src -> src\/plugins -> src|src\/plugins -> src -> src\/plugins)/);
      expect(text).toMatch(/File import cycles \(1\):\n {2}.*src\/cart\.ts.*src\/plugins\/loader\.ts/);
    },
    SLOW,
  );

  it(
    "generateAPIDocumentation: signatures from the servers and doc comments, in TypeScript and Python",
    async () => {
      const ts = await fx.tools.text("generateAPIDocumentation", { path: "src/pricing.ts" });
      expect(ts).toContain(
        "### `price` (function, line 4)\n\n```typescript\nfunction price(item: string): number\n```\n\nThe price of one item; throws for an unknown one.",
      );
      expect(ts).toContain("### `CURRENCY`");
      expect(ts).not.toContain("PRICES");
      const py = await fx.tools.text("generateAPIDocumentation", { path: "zoo/zoo/animals.py" });
      expect(py).toContain("### `chorus` (function, line 8)");
      expect(py).toContain("Barks count times.");
      expect(py).toContain("#### `speak` (method");
      const c = await fx.tools.text("generateAPIDocumentation", { path: "native/util.h" });
      expect(c).toContain("### `add` (function, line 2)");
      expect(c).toContain("int add(int left, int right)");
      expect(c).toContain("Adds two ints.");
    },
    SLOW,
  );

  it(
    "generateTests: previews, then writes scaffolds that tsc, pytest and go vet accept",
    async () => {
      const preview = await fx.tools.text("generateTests", { file: "src/pricing.ts" });
      expect(preview).toContain("Framework: vitest (package.json depends on vitest); style of test/cart.test.ts.");
      expect(preview).toContain("Would create test/pricing.test.ts");
      expect(preview).toContain('+import { price, CURRENCY } from "../src/pricing.js";');
      await expect(read("test/pricing.test.ts")).rejects.toThrow();
      await fx.tools.text("generateTests", { file: "src/pricing.ts", dryRun: false });
      expect(await read("test/pricing.test.ts")).toContain('it.todo("TODO: function price(item: string): number");');
      const tsc = await run(TSC, ["--noEmit", "-p", fx.root], { cwd: fx.root }).then(
        () => "",
        (err: { stdout?: string }) => err.stdout ?? "failed",
      );
      expect(tsc).toBe("");
      const again = await fx.tools.failure("generateTests", { file: "src/pricing.ts", dryRun: false });
      expect(again.code).toBe("file_exists");
      const c = await fx.tools.failure("generateTests", { file: "native/util.c" });
      expect(c.code).toBe("not_supported");
      expect(c.error).toContain("No test framework is known for native/util.c's language");

      await fx.tools.text("generateTests", { file: "zoo/zoo/animals.py", testFile: "zoo/tests/test_animals.py", dryRun: false });
      const collected = await run("python3", ["-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", "tests"], {
        cwd: join(fx.root, "zoo"),
      });
      expect(collected.stdout).toContain("4 tests collected");

      const go = await fx.tools.text("generateTests", { file: "geo/shapes/shapes.go", dryRun: false });
      expect(go).toContain("Framework: go test");
      expect(await read("geo/shapes/shapes_test.go")).toContain("func TestArea(t *testing.T) {\n\t_ = Area");
      await run("go", ["vet", "./..."], { cwd: join(fx.root, "geo"), env: { ...process.env, GOFLAGS: "-mod=mod", GOTOOLCHAIN: "local" } });
    },
    CHECKERS,
  );

  it(
    "testTraceToSource: a real Node stack in built JavaScript mapped back to the TypeScript line",
    async () => {
      await build({
        entryPoints: [join(fx.root, "src/pricing.ts")],
        outfile: join(fx.root, "dist/pricing.js"),
        sourcemap: true,
        format: "esm",
        logLevel: "silent",
      });
      await writeFile(join(fx.root, "dist/run.mjs"), 'import { price } from "./pricing.js";\nprice("plum");\n');
      const stack = await run(process.execPath, [join(fx.root, "dist/run.mjs")]).then(
        () => "",
        (err: { stderr?: string }) => err.stderr ?? "",
      );
      expect(stack).toContain("no price for plum");
      const text = await fx.tools.text("testTraceToSource", { output: stack });
      expect(text).toContain("Failure: Error: no price for plum");
      expect(text).toMatch(/Deepest frame in the code under test: src\/pricing\.ts:6 in price/);
      expect(text).toMatch(/src\/pricing\.ts:6:\d+ in price \(mapped from dist\/pricing\.js:\d+\)/);
      expect(text).toContain("  > 6 |   if (found === undefined) throw new Error(`no price for ${item}`);");
      expect(text).toContain('dist/run.mjs:2:1\n    1 | import { price } from "./pricing.js";');
      const none = await fx.tools.failure("testTraceToSource", { output: "all good" });
      expect(none.code).toBe("invalid_arguments");
    },
    SLOW,
  );

  it(
    "detectUnusedCode in Go: an unexported function nothing calls; exports the generated test names are used",
    async () => {
      const text = await fx.tools.text("detectUnusedCode", { path: "geo" });
      expect(text).toContain("  geo/shapes/shapes.go:11  helper: used nowhere");
      expect(text).not.toMatch(/Area: |Square: /);
      expect(text).toContain("1 test file(s) were not examined");
    },
    SLOW,
  );
});
