// TypeScript 7's server is told not to acquire types: with it on, a server started on a workspace
// runs `npm install @types/...@latest` from the registry into a cache outside the workspace (on
// hono's cold whole-workspace check, up to five installs at once beside the checks), and an answer
// changes when an install ends while nothing in the workspace changed. The setting must survive
// the project's style joining the same configuration section.
import { describe, expect, it } from "vitest";
import { styledSettings } from "../../../src/lsp/project-style.ts";
import { BUILT_IN_SERVERS } from "../../../src/lsp/server-specs.ts";

const found = BUILT_IN_SERVERS.find((spec) => spec.id === "tsgo");
if (found === undefined) throw new Error("no tsgo among the built-in servers");
const tsgo = found;
const off = { disableAutomaticTypeAcquisition: true, tsserver: { automaticTypeAcquisition: { enabled: false } } };

describe("TypeScript 7's automatic type acquisition", () => {
  it("is off in every section the server reads, with no project style", async () => {
    const settings = await styledSettings(tsgo, async () => undefined);
    for (const section of ["js/ts", "typescript", "javascript"]) expect(settings?.[section], section).toMatchObject(off);
  });

  it("stays off beside the project's style in the same section", async () => {
    const settings = await styledSettings(tsgo, async (file) =>
      file === ".editorconfig" ? "root = true\n[*]\nindent_style = space\nindent_size = 3\n" : undefined,
    );
    expect(settings?.["js/ts"]).toMatchObject({ ...off, format: { indentSize: 3 } });
  });
});
