// When eslint cannot run, getDiagnostics' skipped entry names the cause and the fix in one line,
// never the tail of a stack trace: the real eslint 9 of this repo's node_modules, on workspaces
// with an eslint 8 config only, a config importing a package that is not installed, and a rule of
// a plugin the config does not load.
import { symlink } from "node:fs/promises";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { qualityToolset } from "../../src/tools/quality/index.ts";
import { tempWorkspaces, type TempWorkspaces } from "../helpers/temp-workspace.ts";
import { dispatcher } from "../helpers/tool-dispatch.ts";

const REPO = resolve(import.meta.dirname, "../..");

let temp: TempWorkspaces;
beforeAll(async () => {
  temp = await tempWorkspaces("cib-lint-why-");
});
afterAll(async () => {
  await temp.remove();
});

async function eslintReason(name: string, files: Record<string, string>): Promise<string> {
  const root = await temp.make(name, { ...files, "a.js": "var x = 1;\nconsole.log(x);\n" });
  await symlink(join(REPO, "node_modules"), join(root, "node_modules"));
  const d = await dispatcher(root, { toolsets: [qualityToolset], settings: { timeoutMs: 120_000 } });
  const result = await d.data<{ sources: string[]; skipped: { source: string; reason: string }[] }>("getDiagnostics", {});
  expect(result.sources).not.toContain("eslint");
  const reason = result.skipped.find((s) => s.source === "eslint")?.reason ?? "";
  // One line, no stack frame, no banner.
  expect(reason).not.toMatch(/\n|\s+at \S+ \(|Oops!|node:internal/);
  return reason;
}

describe("getDiagnostics says why eslint did not run, and what to do", () => {
  it("an eslint 8 config (.eslintrc) under eslint 9", { timeout: 120_000 }, async () => {
    const reason = await eslintReason("eslintrc-only", { ".eslintrc.json": '{ "rules": { "no-var": "error" } }\n' });
    expect(reason).toMatch(
      /^exited 2: eslint 9 found no eslint\.config\.js, \.mjs or \.cjs .*npx @eslint\/migrate-config \.eslintrc\.json/,
    );
  });

  it("a config importing a package that is not installed", { timeout: 120_000 }, async () => {
    const reason = await eslintReason("missing-package", {
      "eslint.config.mjs": 'import plugin from "eslint-plugin-not-installed-here";\nexport default [{ plugins: { x: plugin } }];\n',
    });
    expect(reason).toBe(
      "exited 2: eslint.config.mjs imports eslint-plugin-not-installed-here, which is not installed: npm install -D eslint-plugin-not-installed-here",
    );
  });

  it("a rule of a plugin the config does not load", { timeout: 120_000 }, async () => {
    const reason = await eslintReason("unloaded-plugin", {
      "eslint.config.mjs": 'export default [{ rules: { "react/jsx-key": "error" } }];\n',
    });
    expect(reason).toMatch(
      /^exited 2: eslint's config turns on the rule react\/jsx-key without loading the plugin react: .*npm install -D eslint-plugin-react/,
    );
  });
});
