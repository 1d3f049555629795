// An edit's proposed content stays open however many files the edit has (src/lsp/open-documents.ts):
// the server keeps at most 64 documents open, and closing one holding proposed content makes the
// server read that file from disk while the edit's other files are shown changed, so a preview of a
// 101-file rename predicted "no exported member" errors that its written form does not have.
import { describe, expect, it } from "vitest";
import { OpenDocuments } from "../../../src/lsp/open-documents.ts";
import type { LspConnection } from "../../../src/ports/lsp.ts";
import { markChecked } from "../../../src/security/jail/workspace-path.ts";

function documents(): { docs: OpenDocuments; closed: string[] } {
  const closed: string[] = [];
  const connection: Pick<LspConnection, "notify"> = {
    notify: async (method, params) => {
      if (method === "textDocument/didClose") closed.push((params as { textDocument: { uri: string } }).textDocument.uri);
    },
  };
  const docs = new OpenDocuments(connection as LspConnection, { readText: async (path) => `// ${path}\n` });
  return { docs, closed };
}

const path = (name: string) => markChecked(`/w/${name}`);

describe("open documents past the bound", () => {
  it("close the least recently used files as on disk, never one holding an edit's proposed content", async () => {
    const { docs, closed } = documents();
    for (let i = 0; i < 10; i++) await docs.sync(path(`disk${i}.ts`), "typescript");
    for (let i = 0; i < 101; i++) await docs.sync(path(`use${i}.ts`), "typescript", { text: `export const v${i} = 1;\n` });
    expect(closed.sort()).toEqual(Array.from({ length: 10 }, (_, i) => `file:///w/disk${i}.ts`).sort());
    expect(docs.size).toBe(101);
    // Put back from disk (the edit is over): they are ordinary documents again, closed in turn by later opens.
    for (let i = 0; i < 101; i++) await docs.sync(path(`use${i}.ts`), "typescript");
    await docs.sync(path("next.ts"), "typescript");
    expect(docs.size).toBe(64);
  });
});
