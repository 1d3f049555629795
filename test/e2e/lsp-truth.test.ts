// The failures seen on real repositories, reproduced on fixtures shaped like them
// (test/fixtures/lsp-repos.ts) with the real servers: a first findReferences that is complete or
// says partial, checked against every whole-word mention of the name; renames that reach every
// project and are then checked by the language's own checker and the fixture's tests; a rename that
// breaks the build saying so; clangd without a compilation database saying so.
import { readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cRepo, filesAt, goRepo, mentionsOf, pythonRepo, type Repo, solutionTsRepo } from "../fixtures/lsp-repos.ts";
import { lspFixture, type LspFixture, writeFiles } from "../helpers/lsp-fixture.ts";
import * as checks from "../helpers/lsp-repo-checks.ts";
import { missingProgram } from "../helpers/missing-program.ts";

/** A loaded 2-core machine runs pyright's first analysis in tens of seconds. */
const SLOW = 240_000;

async function repoFixture(repo: Repo): Promise<LspFixture> {
  const fx = await lspFixture({});
  await writeFiles(fx.root, filesAt(repo, fx.root));
  return fx;
}

/** `file:line` of each location line of a minimal answer. */
function linesOf(text: string): Set<string> {
  return new Set(text.split("\n").flatMap((l) => /^([^\s:][^:]*):(\d+):\d+$/.exec(l.trim())?.slice(1, 3).join(":") ?? []));
}

const withoutLocations = (text: string) => text.split("\n").filter((l) => !/^[^\s:][^:]*:\d+:\d+$/.test(l.trim()));

interface Language {
  language: string;
  repo: Repo;
  newName: string;
  check(root: string): checks.CheckResult;
  test(root: string): checks.CheckResult;
  /** The language's checker as the Errors line names it (a pattern), when the edit check runs one. */
  checker?: string;
  needs?: string[];
}

const TYPESCRIPT: Language = {
  language: "TypeScript (solution-style tsconfig)",
  repo: solutionTsRepo(),
  newName: "HttpError",
  check: checks.checkTypeScript,
  test: checks.testTypeScript,
  checker: "tsgo \\(CLI\\)",
};

const OTHERS: Language[] = [
  {
    language: "Python (tests outside pyright's include)",
    repo: pythonRepo(),
    newName: "say",
    check: checks.checkPython,
    test: checks.testPython,
    checker: "pyright \\(CLI\\)",
  },
  {
    language: "C (compile database, shared header)",
    repo: cRepo(),
    newName: "json_read_number",
    check: checks.checkC,
    test: checks.testC,
    needs: ["clangd", "cc"],
  },
  {
    language: "Go",
    repo: goRepo(),
    newName: "ReadFlag",
    check: checks.checkGo,
    test: checks.testGo,
    needs: ["gopls", "go"],
    checker: "go vet",
  },
];

const missing = (c: Language) => (c.needs ?? []).map((p) => missingProgram("which", [p])).find((m) => m !== undefined);

/** Every first findReferences of the repo's symbols is the whole list, said complete, or says partial. */
async function firstAnswers(fx: LspFixture, repo: Repo): Promise<void> {
  for (const symbol of repo.symbols) {
    const text = await fx.tools.text("findReferences", {
      file: symbol.file,
      line: symbol.line,
      symbol: symbol.name,
      verbosity: "minimal",
      maxResults: 5000,
    });
    const truth = mentionsOf(repo.files, symbol.name, repo.extensions);
    if (text.startsWith("PARTIAL")) continue;
    expect(text.split("\n")[0], text).toMatch(/ \(complete\):$/);
    expect([...linesOf(text)].sort(), `${symbol.name}: ${text}`).toEqual([...truth].sort());
  }
}

/**
 * The first symbol renamed, after the first answers (renameSymbol verifies its references the same
 * way first, so what a fresh server's rename reaches is what those answers showed): every file
 * reached, the Errors line counted by the server and the language's checker, and the language's
 * own build and the fixture's tests pass afterwards.
 */
async function renameChecked(fx: LspFixture, c: Language): Promise<void> {
  const { repo } = c;
  const symbol = repo.symbols[0] as Repo["symbols"][number];
  const text = await fx.tools.text("renameSymbol", { file: symbol.file, line: symbol.line, symbol: symbol.name, newName: c.newName });
  const lines = text.split("\n");
  expect(lines[0], text).toMatch(new RegExp(`^Renamed \`${symbol.name}\` to \`${c.newName}\`: \\d+ files written together\\.$`));
  // TypeScript, Python and Go are checked by their own checker too (tsgo per tsconfig project, pyright's CLI, go vet).
  const also = c.checker === undefined ? "" : `(; and by ${c.checker} over .*: 0 introduced|; ${c.checker} could not check .*)`;
  expect(lines[1], text).toMatch(
    new RegExp(
      `^Errors: 0 introduced, 0 fixed \\(\\d+ files checked by .*, on the files as written, after the server caught up${also}\\)\\.$`,
    ),
  );
  const after = Object.fromEntries(
    await Promise.all(Object.keys(repo.files).map(async (f) => [f, await readFile(join(fx.root, f), "utf8")] as const)),
  );
  expect([...mentionsOf(after, symbol.name, repo.extensions)]).toEqual([]);
  const checked = c.check(fx.root);
  expect(checked.ok, checked.output).toBe(true);
  const tested = c.test(fx.root);
  expect(tested.ok, tested.output).toBe(true);
}

// One fixture and one server per language: the first answers come first (the server fresh), the
// rename last (it writes).
describe("TypeScript with a solution-style tsconfig: first answers, then a rename checked by tsgo -b and the tests", () => {
  let fx: LspFixture;
  const { repo } = TYPESCRIPT;
  beforeAll(async () => {
    fx = await repoFixture(repo);
    await fx.write("README.md", "Throw an `HTTPException` from a route.\n");
  }, SLOW);
  afterAll(async () => {
    await fx?.stop();
  });

  it("the server's own first answer, before any cross-check, covers the spec project, and so earns complete", async () => {
    const doc = await fx.lsp.document("src/http-exception.ts", { method: "textDocument/references", signal: AbortSignal.timeout(60_000) });
    const answer = await doc.wholeProject<{ uri: string }[] | null>("textDocument/references", {
      textDocument: { uri: doc.uri },
      position: { line: 0, character: "export class ".length },
      context: { includeDeclaration: true },
    });
    const files = new Set((answer.value ?? []).map((l) => l.uri.slice(`file://${fx.root}/`.length)));
    expect(answer).toMatchObject({ complete: true });
    expect(files).toContain("test/app.test.ts");
    expect(files).toContain("src/routes/route3.test.ts");
  });

  it("a first findReferences reaches the spec project's tests, and names the files that mention the name outside the answer", async () => {
    const text = await fx.tools.text("findReferences", {
      file: "src/http-exception.ts",
      line: 1,
      symbol: "HTTPException",
      verbosity: "minimal",
      maxResults: 5000,
    });
    expect(withoutLocations(text)).toEqual([
      "37 references to `HTTPException` in 18 files (complete):",
      "Also mentioned in (text that is not in this answer: comments, strings, docs, other symbols named `HTTPException`): README.md (1)",
    ]);
    expect(linesOf(text)).toContain("test/app.test.ts:7");
    expect(linesOf(text)).toContain("src/routes/route3.test.ts:11");
  });

  it("every first findReferences is the whole list, said complete, or says partial", () => firstAnswers(fx, repo), SLOW);

  it("getCallHierarchy's callers are asked once every project using the function is loaded", async () => {
    const calls = await fx.tools.text("getCallHierarchy", { file: "src/app.ts", line: 14, symbol: "dispatch", direction: "incoming" });
    expect(calls).toContain("test/app.test.ts");
    expect(calls).not.toMatch(/^PARTIAL/);
  });

  it("a rename reaches every file, and the build and the tests still pass", () => renameChecked(fx, TYPESCRIPT), SLOW);
});

describe.each(OTHERS)("$language: first answers, then a rename checked by the language's checker and the tests", (c) => {
  const skip = missing(c);
  let fx: LspFixture;
  beforeAll(async () => {
    if (skip === undefined) fx = await repoFixture(c.repo);
  }, SLOW);
  afterAll(async () => {
    await fx?.stop();
  });

  it.skipIf(skip !== undefined)(
    "every first findReferences is the whole list, said complete, or says partial",
    () => firstAnswers(fx, c.repo),
    SLOW,
  );

  it.skipIf(skip !== undefined)("a rename reaches every file, and the build and the tests still pass", () => renameChecked(fx, c), SLOW);
});

describe("workspace symbols with a solution-style tsconfig, on a fresh server", () => {
  let fx: LspFixture;
  beforeAll(async () => {
    fx = await repoFixture(solutionTsRepo(2));
    await fx.write("test/spec-helpers.ts", "export function onlyInSpecProject(): number {\n  return 1;\n}\n");
  });
  afterAll(async () => {
    await fx?.stop();
  });

  it("finds a symbol only the spec project holds, so complete is earned there too", async () => {
    const signal = AbortSignal.timeout(60_000);
    const [server] = await fx.lsp.workspaceServers({ method: "workspace/symbol", signal });
    if (server === undefined) throw new Error("no server answers workspace/symbol");
    const answer = await fx.lsp.wholeProject(
      server,
      () => server.request<{ name: string }[] | null>("workspace/symbol", { query: "onlyInSpecProject" }, { signal }),
      signal,
    );
    expect(answer.complete).toBe(true);
    expect((answer.value ?? []).map((s) => s.name)).toContain("onlyInSpecProject");
  });
});

describe("one solution-style repository past the edit check's 48-file bound: implementations, a breaking rename, a previewed one", () => {
  let fx: LspFixture;
  // 25 routes and their tests: `Context` is used in 52 files.
  const repo = solutionTsRepo(25);
  const handlers = {
    "src/handler.ts": "export interface Handler {\n  handle(body: string): string;\n}\n",
    "src/handlers/echo.ts":
      'import type { Handler } from "../handler.js";\n\nexport class EchoHandler implements Handler {\n  handle(body: string): string {\n    return body;\n  }\n}\n',
    "test/fake-handler.ts":
      'import type { Handler } from "../src/handler.js";\n\nexport class FakeHandler implements Handler {\n  handle(): string {\n    return "fake";\n  }\n}\n',
  };
  beforeAll(async () => {
    fx = await repoFixture({ ...repo, files: { ...repo.files, ...handlers } });
  }, SLOW);
  afterAll(async () => {
    await fx?.stop();
  });

  it("a first findImplementations on the fresh server finds the build project's and the spec project's implementations", async () => {
    const text = await fx.tools.text("findImplementations", { file: "src/handler.ts", line: 1, symbol: "Handler", verbosity: "minimal" });
    expect(text.split("\n")[0], text).toBe("2 implementations of `Handler` (src/handler.ts:1:18):");
    expect([...linesOf(text)].sort()).toEqual(["src/handlers/echo.ts:3", "test/fake-handler.ts:3"]);
  });

  it("a rename that breaks the build says what it introduced, and the checker agrees", async () => {
    // app.ts imports route0 and route1: one name twice.
    const text = await fx.tools.text("renameSymbol", { file: "src/routes/route0.ts", line: 4, symbol: "route0", newName: "route1" });
    expect(text.split("\n").slice(0, 2).join("\n"), text).toMatch(
      /^Renamed `route0` to `route1`: 3 files written together\.\nErrors: 2 introduced, 0 fixed \(/,
    );
    expect(text).toContain("src/app.ts:");
    expect(text).toContain("Duplicate identifier 'route1'");
    // TypeScript's own compiler, run over the build and the spec project before and after, found them too.
    expect(text.split("\n")[1]).toMatch(
      /; and by tsgo \(CLI\) over 2 tsconfig projects \(tsconfig\.build\.json, tsconfig\.spec\.json\): 2 introduced\)\.$/,
    );
    expect(checks.checkTypeScript(fx.root).ok).toBe(false);
  });

  it("a dry run's preview is written exactly, and refused once the files changed", async () => {
    const args = { file: "src/http-exception.ts", line: 7, symbol: "isHttpFailure", newName: "isHttpError" };
    const dry = await fx.tools.text("renameSymbol", { ...args, dryRun: true });
    const preview = /Preview ([0-9a-f]{8}):/.exec(dry)?.[1];
    expect(preview, dry).toBeDefined();
    const app = await readFile(join(fx.root, "src/app.ts"), "utf8");
    await writeFile(join(fx.root, "src/app.ts"), `${app}export const extra = isHttpFailure(1);\n`);
    const refused = await fx.tools.text("renameSymbol", { ...args, preview });
    expect(refused.split("\n")[0]).toMatch(
      new RegExp(`^NOT APPLIED: would rename \`isHttpFailure\` to \`isHttpError\`, but it is not the edit previewed as ${preview} `),
    );
    expect(await readFile(join(fx.root, "src/http-exception.ts"), "utf8")).toBe(repo.files["src/http-exception.ts"]);
    const fresh = /Preview ([0-9a-f]{8}):/.exec(refused)?.[1];
    const written = await fx.tools.text("renameSymbol", { ...args, preview: fresh });
    expect(written.split("\n")[0]).toMatch(/^Renamed `isHttpFailure` to `isHttpError`: \d+ files written together\.$/);
    expect(await readFile(join(fx.root, "src/app.ts"), "utf8")).toContain("export const extra = isHttpError(1);");
  });

  it("a rename in 52 files, past the server's bound of 48: the compiler checks the 4 it left, and the answer says so", async () => {
    const text = await fx.tools.text("renameSymbol", { file: "src/context.ts", line: 1, symbol: "Context", newName: "RequestContext" });
    expect(text.split("\n").slice(0, 2).join("\n"), text).toMatch(
      /^Renamed `Context` to `RequestContext`: 52 files written together\.\nErrors: 0 introduced, 0 fixed \(48 files checked by typescript-go [^;]*; and by tsgo \(CLI\) over 2 tsconfig projects \(tsconfig\.build\.json, tsconfig\.spec\.json\): 0 introduced, covering the 4 file\(s\) the server did not check\)\.$/,
    );
    const after = Object.fromEntries(
      await Promise.all(Object.keys(repo.files).map(async (f) => [f, await readFile(join(fx.root, f), "utf8")] as const)),
    );
    expect([...mentionsOf(after, "Context", repo.extensions)]).toEqual([]);
  });
});

describe.skipIf(missingProgram("clangd", ["--version"]) !== undefined)("clangd without a compilation database", () => {
  let fx: LspFixture;
  beforeAll(async () => {
    fx = await repoFixture(cRepo());
    await rm(join(fx.root, "build/compile_commands.json"));
  });
  afterAll(async () => {
    await fx?.stop();
  });

  it("says it has none, and an answer it cannot check (files it cannot compile) is partial", async () => {
    const text = await fx.tools.text("findReferences", {
      file: "src/jsonlib.c",
      line: 3,
      symbol: "json_parse_number",
      verbosity: "minimal",
    });
    // Without a compilation database clangd never starts its background index (measured: with one,
    // it announces the index about 0.1 s after the first file opens): the answer says so first, at
    // once rather than after waiting for an index that is not coming, and names what to make.
    expect(text.split("\n")[0]).toMatch(
      /^PARTIAL: clangd found no compile_commands\.json for src\/jsonlib\.c \(in its folder, one above it, or their build\/\), so no background index is coming and it answered from the open files only; generate compile_commands\.json \(cmake -B build -DCMAKE_EXPORT_COMPILE_COMMANDS=ON, or bear -- make\) .*; 7 file\(s\) mention `json_parse_number` and have errors where clangd may not see its uses/,
    );
    expect(text).not.toContain("Note: clangd found no compilation database");
  });
});
