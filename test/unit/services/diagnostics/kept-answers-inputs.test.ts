// A kept compiler answer (kept-answers.ts, its content proof) is given back only while nothing it was computed
// from changed: besides the program's files, a config its tsconfig extends from a package (found in
// node_modules, a workspace package linked there included), a package appearing under an
// existing @scope folder, where an import that failed to resolve before would resolve now, and a
// package linked from outside the workspace, whose files the key cannot see change.
import { mkdir, readdir, symlink, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { ProjectCheck } from "../../../../src/services/diagnostics/tsgo-check.ts";
import { type Keeper, keeper, keptWorkspaces } from "../../../helpers/kept-answers.ts";

const workspaces = keptWorkspaces("cib-check-cache-");

/** Everything under `dir` made a minute old, as a tree installed and written long before the check. */
async function age(dir: string): Promise<void> {
  const then = new Date(Date.now() - 60_000);
  for (const entry of await readdir(dir, { recursive: true })) await utimes(join(dir, entry), then, then);
  await utimes(dir, then, then);
}

const answer = (files: string[]): ProjectCheck => ({ diagnostics: [], files, outside: 0 });

/** The project run twice: the first run's inputs are what the second's snapshot from before it is taken over. */
async function keptTwice(k: Keeper<ProjectCheck>, run: { value: ProjectCheck; configs: string[] }): Promise<void> {
  const files = run.value.refusedOn ?? run.value.files;
  for (let i = 0; i < 2; i++) await k.run("tsconfig.json", { ...run, files, readsOutside: false });
}

/** A workspace whose tsconfig extends from a package, kept answer for it; what `change` does must make it miss. */
async function keptThenChanged(
  name: string,
  files: Record<string, string>,
  change: (root: string) => Promise<void>,
  prepare?: (root: string) => Promise<void>,
) {
  const { root, ctx } = await workspaces.plain(name, {
    files,
    prepare: async (root) => {
      await prepare?.(root);
      await age(root);
    },
  });
  const k = keeper<ProjectCheck>(ctx);
  await keptTwice(k, { value: answer(["src/a.ts"]), configs: ["tsconfig.json", "package.json"] });
  const before = await k.lookup("tsconfig.json");
  await change(root);
  const after = await k.lookup("tsconfig.json");
  return { before, after };
}

const PROJECT = {
  "package.json": JSON.stringify({ name: "p", type: "module" }),
  "src/a.ts": 'import { x } from "@acme/x";\nexport const a: number = x;\n',
  "node_modules/@acme/x/package.json": JSON.stringify({ name: "@acme/x", types: "index.d.ts" }),
  "node_modules/@acme/x/index.d.ts": "export declare const x: number;\n",
};

describe("a kept compiler answer", () => {
  it("is dropped when a config its tsconfig extends from a package changes", async () => {
    const files = {
      ...PROJECT,
      "tsconfig.json": JSON.stringify({ extends: "@tsconfig/strictest/tsconfig.json", include: ["src"] }),
      "node_modules/@tsconfig/strictest/tsconfig.json": JSON.stringify({ compilerOptions: { strict: false } }),
    };
    const { before, after } = await keptThenChanged("extends-package", files, (root) =>
      writeFile(join(root, "node_modules/@tsconfig/strictest/tsconfig.json"), JSON.stringify({ compilerOptions: { strict: true } })),
    );
    expect(before).toEqual(answer(["src/a.ts"]));
    expect(after).toBeUndefined();
  });

  it("is dropped when a config reached through a package that extends another changes (a workspace package linked into node_modules)", async () => {
    const files = {
      ...PROJECT,
      "tsconfig.json": JSON.stringify({ extends: "@acme/tsconfig", include: ["src"] }),
      "packages/tsconfig/package.json": JSON.stringify({ name: "@acme/tsconfig" }),
      "packages/tsconfig/tsconfig.json": JSON.stringify({ extends: "./base.json" }),
      "packages/tsconfig/base.json": JSON.stringify({ compilerOptions: { strict: false } }),
    };
    const { before, after } = await keptThenChanged(
      "extends-workspace-package",
      files,
      (root) => writeFile(join(root, "packages/tsconfig/base.json"), JSON.stringify({ compilerOptions: { strict: true } })),
      (root) => symlink("../../packages/tsconfig", join(root, "node_modules/@acme/tsconfig")),
    );
    expect(before).toEqual(answer(["src/a.ts"]));
    expect(after).toBeUndefined();
  });

  it("is dropped when a package appears under an existing @scope folder", async () => {
    const files = { ...PROJECT, "tsconfig.json": JSON.stringify({ include: ["src"] }) };
    const { before, after } = await keptThenChanged("new-scoped-package", files, async (root) => {
      await mkdir(join(root, "node_modules/@acme/y"));
      await writeFile(join(root, "node_modules/@acme/y/index.d.ts"), "export declare const y: number;\n");
    });
    expect(before).toEqual(answer(["src/a.ts"]));
    expect(after).toBeUndefined();
  });

  it("is not given back after a change in a config extended from a package linked from outside the workspace", async () => {
    const elsewhere = await workspaces.make("elsewhere-tsconfig", {
      "package.json": JSON.stringify({ name: "@acme/tsconfig" }),
      "tsconfig.json": JSON.stringify({ compilerOptions: { strict: false } }),
    });
    const files = { ...PROJECT, "tsconfig.json": JSON.stringify({ extends: "@acme/tsconfig", include: ["src"] }) };
    const { after } = await keptThenChanged(
      "extends-linked-from-outside",
      files,
      () => writeFile(join(elsewhere, "tsconfig.json"), JSON.stringify({ compilerOptions: { strict: true } })),
      (root) => symlink(elsewhere, join(root, "node_modules/@acme/tsconfig")),
    );
    expect(after).toBeUndefined();
  });

  it("is not given back after a change in a package linked from outside the workspace (a file: dependency)", async () => {
    const elsewhere = await workspaces.make("elsewhere-package", {
      "package.json": JSON.stringify({ name: "linked", types: "index.d.ts" }),
    });
    const files = { ...PROJECT, "tsconfig.json": JSON.stringify({ include: ["src"] }) };
    // The import failed to resolve (no index.d.ts there): the compiler read the package.json outside and listed nothing of it.
    const { after } = await keptThenChanged(
      "package-linked-from-outside",
      files,
      () => writeFile(join(elsewhere, "index.d.ts"), "export declare const linked: number;\n"),
      (root) => symlink(elsewhere, join(root, "node_modules/linked")),
    );
    expect(after).toBeUndefined();
  });

  it("is given back while nothing it read changed, a change elsewhere in node_modules included", async () => {
    const files = { ...PROJECT, "tsconfig.json": JSON.stringify({ include: ["src"] }), "node_modules/@other/z/index.d.ts": "" };
    const { before, after } = await keptThenChanged("unchanged", files, (root) =>
      writeFile(join(root, "node_modules/@other/z/index.d.ts"), "export {};\n"),
    );
    expect(before).toEqual(answer(["src/a.ts"]));
    expect(after).toEqual(answer(["src/a.ts"]));
  });
});

describe("a kept refusal (TS6305: a referenced project's output not built)", () => {
  const refusal = (refusedOn?: string[]): ProjectCheck => ({
    ...answer([]),
    failed: "imports the build output of a project it references, which is not built (TS6305)",
    ...(refusedOn === undefined ? {} : { refusedOn }),
  });

  it("is given back while nothing it read changed, and dropped once the missing output is built", async () => {
    // The output folder exists already (another output built): only the named output's own state shows it built.
    const { root, ctx } = await workspaces.plain("refusal", {
      files: { ...PROJECT, "tsconfig.json": "{}", "dist/types/b.d.ts": "export {};\n" },
    });
    const k = keeper<ProjectCheck>(ctx);
    const check = refusal(["src/a.ts", "dist/types/a.d.ts"]);
    await keptTwice(k, { value: check, configs: ["tsconfig.json"] });
    expect(await k.lookup("tsconfig.json")).toEqual(check);
    await writeFile(join(root, "dist/types/a.d.ts"), "export declare const a: number;\n");
    expect(await k.lookup("tsconfig.json")).toBeUndefined();
  });
});
