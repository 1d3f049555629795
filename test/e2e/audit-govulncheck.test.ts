// getSecurityAdvisories meets the real govulncheck, offline: the test writes a tiny Go vulnerability
// database (the format govulncheck's file:// client reads, both the one before 1.0 that Debian 12
// ships, reached through GOVULNDB, and the documented v1 layout at go.dev/security/vuln/database)
// with two made-up advisories on the standard library, and a module that calls one vulnerable
// function (unicode/utf8.RuneLen) and only imports the other's package (math/bits, not its Reverse). Everything else is govulncheck's and go's own:
// the package loading, the call graph, the report.
import { mkdir, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createNodeRuntime } from "../../runtime/node.ts";
import { tempWorkspaces, type TempWorkspaces } from "../helpers/temp-workspace.ts";
import { dispatcher } from "../helpers/tool-dispatch.ts";

interface Advisories {
  ecosystems: { ecosystem: string; command: string; status: string; why?: string; advisories: Record<string, unknown>[] }[];
}

const MODIFIED = "2023-01-01T00:00:00Z";
const entry = (id: string, pkg: string, symbol: string, details: string) => ({
  schema_version: "1.3.1",
  id,
  modified: MODIFIED,
  published: MODIFIED,
  summary: details.split(".")[0],
  details,
  affected: [
    {
      package: { name: "stdlib", ecosystem: "Go" },
      ranges: [{ type: "SEMVER", events: [{ introduced: "0" }, { fixed: "99.0.0" }] }],
      database_specific: { url: `https://pkg.go.dev/vuln/${id}` },
      ecosystem_specific: { imports: [{ path: pkg, symbols: [symbol] }] },
    },
  ],
});
const CALLED = entry("GO-2099-0001", "unicode/utf8", "RuneLen", "RuneLen may loop forever on crafted input. Made up for a test.");
const IMPORTED = entry("GO-2099-0002", "math/bits", "Reverse", "Reverse may drop bits. Made up for a test.");

let temp: TempWorkspaces;
let root: string;
let db: string;

beforeAll(async () => {
  temp = await tempWorkspaces("cib-govuln-");
  root = await temp.make("app", {
    "go.mod": "module example.com/app\n\ngo 1.18\n",
    // Two packages of the standard library that import nothing: govulncheck loads and type-checks
    // every package imported, and strings (through io, sync and runtime) took it 10 times as long.
    "main.go": `package main

import (
	"math/bits"
	"unicode/utf8"
)

func main() {
	println(utf8.RuneLen('e') + bits.OnesCount(7))
}
`,
  });
  db = await temp.make("vulndb", {});
  const write = async (path: string, value: unknown) => {
    await mkdir(join(db, path, ".."), { recursive: true });
    await writeFile(join(db, path), JSON.stringify(value));
  };
  for (const e of [CALLED, IMPORTED]) await write(`ID/${e.id}.json`, e);
  // Before govulncheck 1.0: an index of modules, one file of entries per module, the ids, the aliases.
  await write("index.json", { stdlib: MODIFIED });
  await write("stdlib.json", [CALLED, IMPORTED]);
  await write("ID/index.json", [CALLED.id, IMPORTED.id]);
  await write("aliases.json", {});
  // Since 1.0 (the documented layout): the database's modification time, and per module its advisories.
  await write("index/db.json", { modified: MODIFIED });
  await write("index/modules.json", [
    { path: "stdlib", vulns: [CALLED, IMPORTED].map((e) => ({ id: e.id, modified: MODIFIED, fixed: "99.0.0" })) },
  ]);
  await write(
    "index/vulns.json",
    [CALLED, IMPORTED].map((e) => ({ id: e.id, modified: MODIFIED, aliases: [] })),
  );
});

afterAll(async () => {
  await temp?.remove();
});

it("reads govulncheck's own report: the called advisory with its call path, the imported one said to be imported only", {
  timeout: 240_000,
}, async () => {
  const runtime = createNodeRuntime();
  const d = await dispatcher(root, { runtime: { ...runtime, env: { ...runtime.env, GOVULNDB: pathToFileURL(db).href } } });
  const { ecosystems } = await d.data<Advisories>("getSecurityAdvisories", {});
  expect(ecosystems.map((e) => e.ecosystem)).toEqual(["go"]);
  const [go] = ecosystems;
  expect(go, JSON.stringify(go)).toMatchObject({ ecosystem: "go", command: "govulncheck -json ./...", status: "audited" });
  const byId = Object.fromEntries((go?.advisories ?? []).map((a) => [String(a.id).split(" ")[0], a]));
  expect(Object.keys(byId).sort()).toEqual(["GO-2099-0001", "GO-2099-0002"]);
  expect(byId["GO-2099-0001"]).toEqual({
    id: "GO-2099-0001",
    package: "stdlib",
    // The standard library's versions as govulncheck names them: go1.19.8 before 1.0, v1.19.8 since.
    versions: [expect.stringMatching(/^(go|v)1\.\d+/)],
    severity: "unknown",
    title: expect.stringMatching(/^RuneLen may loop forever on crafted input/),
    url: "https://pkg.go.dev/vuln/GO-2099-0001",
    fixedIn: [expect.stringMatching(/^(go|v)99\.0/)],
    paths: [expect.stringMatching(/^calls: example\.com\/app\.main > .*unicode\/utf8\.RuneLen$/)],
  });
  expect(byId["GO-2099-0002"]).toMatchObject({ package: "stdlib", paths: [expect.stringMatching(/^imported, not called/)] });
  // govulncheck wrote nothing into the workspace.
  expect((await readdir(root)).sort()).toEqual(["go.mod", "main.go"]);
});
