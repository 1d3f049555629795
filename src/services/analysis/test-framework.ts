// The test framework and style a project already uses, so a generated test reads like its
// neighbours: the framework from the manifests (package.json dependencies, pyproject, go.mod) and
// from existing tests; where tests live (beside the code, a tests/ folder, __tests__), their
// suffix (.test / .spec), how they import the code (".js" extensions or none) and their quotes.
import type { ToolContext } from "../../capabilities/context.ts";
import { basename, dirname } from "../../lib/paths/posix-path.ts";
import { isTestFile } from "../conventions/test-files.ts";

export type Framework = "vitest" | "jest" | "mocha" | "node:test" | "pytest" | "go test";

export interface TestStyle {
  framework: Framework;
  /** Why this framework: the manifest or test that says so, or what was assumed. */
  because: string;
  /** Root-relative path of the new test for the source file. */
  testFile: string;
  /** JS/TS: the extension relative imports carry ("" when none). */
  importExtension: string;
  quote: '"' | "'";
  semicolons: boolean;
  /** JS/TS: the test imports describe/it/expect (vitest, @jest/globals) rather than using globals. */
  importsGlobals: boolean;
  /** An existing test read for the style, if any. */
  example?: string;
}

const MAX_BYTES = 1024 * 1024;
const JS_TS = /\.([cm]?[jt]sx?)$/;

export async function detectTestStyle(
  ctx: ToolContext,
  source: string,
  opts: { tests: readonly string[] },
): Promise<TestStyle | undefined> {
  const read = (path: string) => ctx.fs.readText(path, { maxBytes: MAX_BYTES }).catch(() => undefined);
  const ext = JS_TS.exec(source)?.[1];
  const sameKind = opts.tests.filter(
    (t) => (ext === undefined ? t.endsWith(source.slice(source.lastIndexOf("."))) : JS_TS.test(t)) && isTestFile(t),
  );
  const example = nearest(sameKind, source);
  const exampleText = example === undefined ? "" : ((await read(example)) ?? "");
  if (source.endsWith(".go")) return { ...plain("go test", "go's own test runner"), testFile: source.replace(/\.go$/, "_test.go") };
  if (source.endsWith(".py")) {
    const pyproject = (await read("pyproject.toml")) ?? "";
    const because = /pytest/.test(pyproject)
      ? "pyproject.toml names pytest"
      : example !== undefined
        ? `${example} is collected by pytest`
        : "pytest (assumed: it also runs unittest tests)";
    const dir = (await isDirectory(ctx, "tests")) ? "tests" : example !== undefined ? dirname(example) : dirname(source);
    return {
      ...plain("pytest", because),
      testFile: `${dir === "." ? "" : `${dir}/`}test_${basename(source).replace(/\.py$/, ".py")}`,
      ...(example === undefined ? {} : { example }),
    };
  }
  if (ext === undefined) return undefined;
  const pkg = (await read("package.json")) ?? "";
  const deps = /"(vitest|jest|mocha)"\s*:/g;
  const named = new Set([...pkg.matchAll(deps)].map((m) => m[1]));
  const fromExample = /from\s+["'](vitest|@jest\/globals|node:test|mocha)["']/.exec(exampleText)?.[1];
  const framework: Framework =
    fromExample === "vitest" || named.has("vitest")
      ? "vitest"
      : fromExample === "@jest/globals" || named.has("jest")
        ? "jest"
        : named.has("mocha")
          ? "mocha"
          : "node:test";
  const because = named.has(framework)
    ? `package.json depends on ${framework}`
    : fromExample !== undefined
      ? `${example} imports ${fromExample}`
      : "node:test (assumed: package.json names no test framework)";
  const relImport = /from\s+(["'])\.{1,2}\/[^"']*?(\.[cm]?[jt]sx?)?\1/.exec(exampleText);
  const suffix = example === undefined ? ".test" : /\.spec\.[^.]+$/.test(example) ? ".spec" : ".test";
  const stem = basename(source).replace(JS_TS, "");
  const place = example === undefined ? dirname(source) : placeLike(example, source);
  return {
    framework,
    because,
    testFile: `${place === "." ? "" : `${place}/`}${stem}${suffix}.${ext}`,
    importExtension: relImport === null ? (/^ts/.test(ext) && /"type"\s*:\s*"module"/.test(pkg) ? ".js" : "") : (relImport[2] ?? ""),
    quote: /from\s+'/.test(exampleText) ? "'" : '"',
    semicolons: exampleText === "" || /;\s*$/m.test(exampleText),
    importsGlobals: framework === "vitest" ? !/\bglobals\s*:\s*true/.test(exampleText) : fromExample !== undefined,
    ...(example === undefined ? {} : { example }),
  };
}

function plain(framework: Framework, because: string): Omit<TestStyle, "testFile"> {
  return { framework, because, importExtension: "", quote: '"', semicolons: false, importsGlobals: true };
}

/** The test closest to the source in the tree (most leading folders shared). */
function nearest(tests: readonly string[], source: string): string | undefined {
  const shared = (t: string) => {
    const a = t.split("/");
    const b = source.split("/");
    let n = 0;
    while (n < a.length - 1 && a[n] === b[n]) n++;
    return n;
  };
  return [...tests].sort((x, y) => shared(y) - shared(x) || (x < y ? -1 : 1))[0];
}

/** Where a test for `source` goes if it lives like `example`: beside its code, in __tests__, or in a mirrored test folder. */
function placeLike(example: string, source: string): string {
  const dir = dirname(example);
  if (basename(dir) === "__tests__") return `${dirname(source) === "." ? "" : `${dirname(source)}/`}__tests__`;
  const top = example.split("/")[0] ?? "";
  if (/^(?:tests?|spec)$/.test(top)) {
    const rest = dirname(source).split("/").slice(1).join("/");
    return rest === "" ? top : `${top}/${rest}`;
  }
  return dirname(source);
}

async function isDirectory(ctx: ToolContext, path: string): Promise<boolean> {
  return (await ctx.fs.entryStat(path).catch(() => undefined))?.isDirectory === true;
}
