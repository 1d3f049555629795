// What a server's WorkspaceEdit would make of the workspace (src/lsp/edit-plan.ts), worked out on a
// real directory before anything is written: renames move content (edits to the new URI after them
// apply to it), deletions leave the path absent, and anything but a regular file is refused.
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { WorkspaceEdit } from "vscode-languageserver-protocol";
import { createNodeFs } from "../../../runtime/shared/fs.ts";
import { planChanges } from "../../../src/lsp/edit-plan.ts";
import { checkWorkspaceEdit } from "../../../src/lsp/workspace-edit.ts";
import { createWorkspace } from "../../../src/security/jail/workspace-jail.ts";
import { createWorkspaceFs, type WorkspaceFs } from "../../../src/workspace/workspace-fs.ts";

let root: string;
let fs: WorkspaceFs;
const uri = (rel: string) => `file://${join(root, rel)}`;
const at = (line: number) => ({ start: { line, character: 0 }, end: { line, character: 0 } });

async function plan(edit: WorkspaceEdit, openText: (path: string) => string | undefined = () => undefined) {
  const checked = await checkWorkspaceEdit(edit, (u, o) => fs.resolve(u, o));
  const planned = await planChanges({ fs, openText }, checked.changes);
  return Object.fromEntries(
    [...planned.values()].map((p) => [
      p.relative,
      { disk: p.disk?.text, proposed: p.proposed?.text, from: p.proposed?.from === undefined ? undefined : fs.relative(p.proposed.from) },
    ]),
  );
}

beforeAll(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), "cib-edit-plan-")));
  await mkdir(join(root, "dir"));
  await writeFile(join(root, "a.ts"), "a\n");
  await writeFile(join(root, "b.ts"), "b\n");
  await symlink(join(root, "a.ts"), join(root, "link.ts"));
  fs = createWorkspaceFs(createNodeFs(), await createWorkspace(createNodeFs(), { root }));
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("planChanges", () => {
  it("moves content on a rename; edits to the old URI before it and to the new one after it both apply", async () => {
    const edit: WorkspaceEdit = {
      documentChanges: [
        { textDocument: { uri: uri("a.ts"), version: null }, edits: [{ range: at(0), newText: "before\n" }] },
        { kind: "rename", oldUri: uri("a.ts"), newUri: uri("moved.ts") },
        { textDocument: { uri: uri("moved.ts"), version: null }, edits: [{ range: at(2), newText: "after\n" }] },
      ],
    };
    expect(await plan(edit)).toEqual({
      "a.ts": { disk: "a\n", proposed: undefined, from: undefined },
      "moved.ts": { disk: undefined, proposed: "before\na\nafter\n", from: "a.ts" },
    });
  });

  it("deletes, skips what the options say to skip, and refuses what they do not allow", async () => {
    expect(
      await plan({
        documentChanges: [
          { kind: "delete", uri: uri("b.ts") },
          { kind: "delete", uri: uri("gone.ts"), options: { ignoreIfNotExists: true } },
        ],
      }),
    ).toEqual({
      "b.ts": { disk: "b\n", proposed: undefined, from: undefined },
      "gone.ts": { disk: undefined, proposed: undefined, from: undefined },
    });
    await expect(plan({ documentChanges: [{ kind: "delete", uri: uri("gone.ts") }] })).rejects.toMatchObject({ code: "file_not_found" });
    await expect(plan({ documentChanges: [{ kind: "rename", oldUri: uri("a.ts"), newUri: uri("b.ts") }] })).rejects.toMatchObject({
      code: "file_exists",
    });
    expect(
      await plan({ documentChanges: [{ kind: "rename", oldUri: uri("a.ts"), newUri: uri("b.ts"), options: { overwrite: true } }] }),
    ).toEqual({ "a.ts": { disk: "a\n", proposed: undefined, from: undefined }, "b.ts": { disk: "b\n", proposed: "a\n", from: "a.ts" } });
  });

  it("refuses directories, symlinks, a missing target directory, and a file the server saw otherwise", async () => {
    await expect(plan({ documentChanges: [{ kind: "delete", uri: uri("dir"), options: { recursive: true } }] })).rejects.toMatchObject({
      code: "not_supported",
      message: expect.stringContaining("deletes dir, which is a directory"),
    });
    await expect(plan({ documentChanges: [{ kind: "rename", oldUri: uri("link.ts"), newUri: uri("c.ts") }] })).rejects.toMatchObject({
      code: "not_supported",
      message: expect.stringContaining("renames link.ts, which is a symbolic link"),
    });
    await expect(plan({ documentChanges: [{ kind: "rename", oldUri: uri("a.ts"), newUri: uri("no/such/c.ts") }] })).rejects.toMatchObject({
      code: "file_not_found",
      message: expect.stringContaining("whose directory does not exist"),
    });
    await expect(plan({ documentChanges: [{ kind: "delete", uri: uri("a.ts") }] }, () => "what the server had\n")).rejects.toMatchObject({
      code: "file_changed",
    });
  });
});
