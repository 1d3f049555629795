import { afterAll, beforeAll, it } from "vitest";
import { OTHER_PROJECTS, PY_PROJECT } from "../fixtures/lsp-projects.ts";
import { lspFixture, type LspFixture } from "../helpers/lsp-fixture.ts";
let fx: LspFixture;
beforeAll(async () => { fx = await lspFixture({ ...PY_PROJECT, ...OTHER_PROJECTS }); });
afterAll(async () => { await fx?.stop(); });
const show = async (name: string, args: Record<string, unknown>) => { const r = await fx.tools.call(name, args); console.log(`=== ${name} ${JSON.stringify(args)}\n${r.content[0]?.text}`); };
it("explore", async () => {
  await show("goToDefinition", { file: "zoo/app.py", line: 5, symbol: "chorus" });
  const doc = await fx.lsp.document("zoo/app.py", { method: "textDocument/hover", signal: new AbortController().signal });
  await new Promise((r) => setTimeout(r, 3000));
  console.log("STDERR", doc.server.stderrTail(), fx.lsp.status().servers.map((s) => s.state));
  await show("findReferences", { file: "zoo/animals.py", line: 11, symbol: "chorus" });
  await show("goToDefinition", { file: "scripts/build.sh", line: 6, symbol: "greet" });
  const sh = await fx.lsp.document("scripts/build.sh", { method: "textDocument/hover", signal: new AbortController().signal });
  console.log("BASH", sh.server.stderrTail().slice(-1500), JSON.stringify(sh.server.capabilities.definitionProvider));
  console.log(JSON.stringify(await sh.request("textDocument/definition", { textDocument: { uri: sh.uri }, position: { line: 5, character: 1 } })));
  console.log(JSON.stringify(await sh.request("textDocument/documentSymbol", { textDocument: { uri: sh.uri } })));
}, 240_000);
