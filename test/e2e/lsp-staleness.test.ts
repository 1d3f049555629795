// Never stale: a file rewritten on disk the way sed -i and most editors save (a temporary file
// renamed over it) reaches the servers as a change, and the diagnostics of a file that imports or
// includes it are fresh at the next call once the watcher has seen the write, in every language;
// a transaction's commit reports what its files say together, not an error one of its own edits fixed.
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cRepo, filesAt, goRepo, pythonRepo, type Repo, solutionTsRepo } from "../fixtures/lsp-repos.ts";
import { lspFixture, type LspFixture, writeFiles } from "../helpers/lsp-fixture.ts";
import { missingProgram } from "../helpers/missing-program.ts";

const SLOW = 240_000;

interface Diagnostics {
  diagnostics: { file: string; line: number; message: string }[];
  counts: { error: number };
  skipped: { source: string; reason: string }[];
}

/** Writes `text` into `file` as sed -i does: a temporary file renamed over it. */
function renameOver(root: string, file: string, text: string): void {
  const tmp = join(root, `${file}.sed-tmp`);
  writeFileSync(tmp, text);
  renameSync(tmp, join(root, file));
}

/** Resolves once the bridge's watcher has told the servers that `file` changed (not a server's publication about it). */
function changeSeen(fx: LspFixture, file: string): Promise<void> {
  return new Promise((resolve) => {
    const off = fx.lsp.onChange((relative, cause) => {
      if (relative !== file || cause !== "disk") return;
      off();
      resolve();
    });
  });
}

describe.each([
  {
    language: "TypeScript",
    repo: solutionTsRepo(),
    changed: "src/http-exception.ts",
    dependent: "src/routes/route0.ts",
    break: ["export class HTTPException", "export class HttpErr"],
    says: "has no exported member 'HTTPException'",
    skip: undefined,
  },
  {
    language: "Python",
    repo: pythonRepo(),
    changed: "src/clilib/core.py",
    dependent: "src/clilib/plugin0.py",
    break: ["def echo(", "def echo_gone("],
    says: '"echo" is unknown import symbol',
    skip: undefined,
  },
  {
    language: "C (a shared header)",
    repo: cRepo(),
    changed: "include/jsonlib.h",
    dependent: "src/reader0.c",
    // An unknown type is an error in C (an undeclared function is only a warning before C23).
    break: ["} json_value;", "} json_val;"],
    says: "json_value",
    skip: missingProgram("clangd", ["--version"]),
  },
  {
    language: "Go",
    repo: goRepo(),
    changed: "core/core.go",
    dependent: "cmd0/cmd.go",
    break: ["func ParseFlag(", "func ParseFlg("],
    says: "ParseFlag",
    skip: missingProgram("gopls", ["version"]),
  },
])("$language: $dependent after $changed is saved by rename-over", (c) => {
  let fx: LspFixture;
  /** The errors, once the answer says it is current (nothing skipped): the tool waits for the server, the test does not poll. */
  const errorsIn = async (file: string) => {
    const answer = await fx.tools.data<Diagnostics>("getDiagnostics", { file, severity: "error" });
    expect(answer.skipped, JSON.stringify(answer)).toEqual([]);
    return answer.diagnostics.map((d) => d.message);
  };
  beforeAll(async () => {
    if (c.skip !== undefined) return;
    fx = await lspFixture({});
    await writeFiles(fx.root, filesAt(c.repo as Repo, fx.root));
  }, SLOW);
  afterAll(async () => {
    await fx?.stop();
  });

  it.skipIf(c.skip !== undefined)(
    "shows the break at the next call, and its fix",
    async () => {
      expect(await errorsIn(c.dependent)).toEqual([]);
      const original = readFileSync(join(fx.root, c.changed), "utf8");
      let seen = changeSeen(fx, c.changed);
      renameOver(fx.root, c.changed, original.replace(c.break[0] as string, c.break[1] as string));
      await seen;
      const broken = await errorsIn(c.dependent);
      expect(broken.join("\n")).toContain(c.says);
      seen = changeSeen(fx, c.changed);
      renameOver(fx.root, c.changed, original);
      await seen;
      expect(await errorsIn(c.dependent)).toEqual([]);
    },
    SLOW,
  );
});

describe("a transaction's commit", () => {
  let fx: LspFixture;
  beforeAll(async () => {
    fx = await lspFixture({
      "tsconfig.json": JSON.stringify({ compilerOptions: { strict: true, module: "nodenext", noEmit: true }, include: ["src"] }),
      "src/user.ts": 'import { oldName } from "./lib.js";\nexport const v: number = oldName();\n',
      "src/lib.ts": "export function oldName(): number {\n  return 1;\n}\n",
    });
  });
  afterAll(async () => {
    await fx?.stop();
  });

  it("reports what its files say together: no error that another of its edits fixed", async () => {
    for (const file of ["src/user.ts", "src/lib.ts"])
      expect((await fx.tools.data<Diagnostics>("getDiagnostics", { file, severity: "error" })).counts.error).toBe(0);
    const { transactionId } = await fx.tools.data<{ transactionId: string }>("beginTransaction", {});
    // The importer first: checked first after the write, it must already see lib.ts's new export.
    await fx.tools.text("stageEdit", {
      transactionId,
      filePath: "src/user.ts",
      content: 'import { newName } from "./lib.js";\nexport const v: number = newName();\n',
    });
    await fx.tools.text("stageEdit", {
      transactionId,
      filePath: "src/lib.ts",
      content: "export function newName(): number {\n  return 1;\n}\n",
    });
    const text = await fx.tools.text("commitTransaction", { transactionId });
    expect(text).toContain("written together");
    expect(text).not.toMatch(/\d+ new/);
    expect(text).toContain("Diagnostics (typescript-go 7.0.2): unchanged, 0 in the file");
  });
});
