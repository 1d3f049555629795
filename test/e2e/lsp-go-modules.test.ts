// go vet as a commit's checker where the workspace root is no Go module: a go.work at the root uses
// two modules in subfolders, one importing the other. The check runs from each written file's
// module root, and from those of the files that use it, once per module: a commit that breaks the
// other module is counted introduced by go vet, which `go vet` run in that module confirms; a clean
// one is not. Nothing here starts a language server.
import { spawnSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lspFixture, type LspFixture, writeFiles } from "../helpers/lsp-fixture.ts";
import { missingProgram } from "../helpers/missing-program.ts";

const SLOW = 120_000;
const LIB = "package lib\n\nfunc Twice(n int) int { return n * 2 }\n";
const FILES = {
  "go.work": "go 1.19\n\nuse (\n\t./lib\n\t./svc\n)\n",
  "lib/go.mod": "module example.com/lib\n\ngo 1.19\n",
  "lib/lib.go": LIB,
  "svc/go.mod": "module example.com/svc\n\ngo 1.19\n\nrequire example.com/lib v0.0.0\n",
  "svc/main.go": 'package main\n\nimport "example.com/lib"\n\nfunc main() { println(lib.Twice(2)) }\n',
};

describe.skipIf(missingProgram("go", ["version"]) !== undefined)("go vet over each module a commit reaches (go.work)", () => {
  let fx: LspFixture;
  beforeAll(async () => {
    fx = await lspFixture({});
    await writeFiles(fx.root, FILES);
  }, SLOW);
  afterAll(async () => {
    await fx?.stop();
  });

  const commit = async (content: string) => {
    const { transactionId } = await fx.tools.data<{ transactionId: string }>("beginTransaction", {});
    await fx.tools.text("stageEdit", { transactionId, filePath: "lib/lib.go", content });
    return fx.tools.text("commitTransaction", { transactionId });
  };

  it(
    "a commit that breaks the other module is counted by go vet, and a clean one is not",
    async () => {
      const broken = await commit(LIB.replace("Twice(n int) int { return n * 2 }", "Twice(n string) string { return n + n }"));
      expect(broken.split("\n")[1], broken).toMatch(
        /^Errors: 1 introduced, 0 fixed \(.*by go vet over 2 modules \(lib, svc\): 1 introduced, covering the 1 file\(s\) the server did not check\)\.$/,
      );
      expect(broken).toMatch(/\+ svc\/main\.go:5:\d+ .*cannot use 2/);
      const vet = spawnSync("go", ["vet", "./..."], {
        cwd: `${fx.root}/svc`,
        encoding: "utf8",
        env: { ...process.env, GOFLAGS: "-buildvcs=false" },
      });
      expect(vet.stderr).toMatch(/main\.go:5:\d+: cannot use 2/);
      const clean = await commit(LIB);
      expect(clean.split("\n")[1], clean).toMatch(
        /^Errors: 0 introduced, 1 fixed \(.*by go vet over 2 modules \(lib, svc\): 0 introduced, covering the 1 file\(s\) the server did not check\)\.$/,
      );
    },
    SLOW,
  );
});
