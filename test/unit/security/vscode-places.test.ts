// The jail's refusal to write VS Code's workspace config (src/security/jail/vscode-places.ts): a
// task written to .vscode/tasks.json would run with VS Code's whole environment on the next
// runVSCodeTask. Every write path of ctx.fs is tried (a write, a commit, a directory, a delete, both
// ends of a rename), and the tool a model would use (createFile); with
// --allow-vscode-dir-writes the same writes go through.
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createNodeRuntime } from "../../../runtime/node.ts";
import { createWorkspace } from "../../../src/security/jail/workspace-jail.ts";
import { createWorkspaceFs, type WorkspaceFs } from "../../../src/workspace/workspace-fs.ts";
import { dispatcher } from "../../helpers/tool-dispatch.ts";

const TASKS = '{ "version": "2.0.0", "tasks": [{ "label": "build", "type": "shell", "command": "make" }] }\n';
let base: string;
let root: string;
let fs: WorkspaceFs;
let open: WorkspaceFs;
const runtime = createNodeRuntime();

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), "cib-vscode-places-")));
  root = join(base, "ws");
  await mkdir(join(root, ".vscode"), { recursive: true });
  await mkdir(join(root, "packages/app/.vscode"), { recursive: true });
  await mkdir(join(root, "src"), { recursive: true });
  await writeFile(join(root, ".vscode/tasks.json"), TASKS);
  await writeFile(join(root, "src/a.ts"), "a\n");
  fs = createWorkspaceFs(runtime.fs, await createWorkspace(runtime.fs, { root }));
  open = createWorkspaceFs(runtime.fs, await createWorkspace(runtime.fs, { root, allowVSCodeDirWrites: true }));
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

const refused = { code: "permission_denied", suggestion: expect.stringContaining("--allow-vscode-dir-writes") };

describe("writes where VS Code takes code from", () => {
  it.each([
    ".vscode/tasks.json",
    ".vscode/launch.json",
    ".vscode/settings.json",
    ".vscode/extensions.json",
    ".VSCode/tasks.json",
    ".vscode./tasks.json",
    "packages/app/.vscode/tasks.json",
    "team.code-workspace",
    "sub/Team.CODE-WORKSPACE",
  ])("refuses a write to %s, naming the path and the flag", async (path) => {
    await expect(fs.writeFile(path, TASKS)).rejects.toMatchObject({ ...refused, message: expect.stringContaining(path) });
  });

  it("refuses them on every write path: commit, directory, delete, both ends of a rename", async () => {
    const tasks = await fs.resolve(".vscode/tasks.json");
    await expect(
      fs.commit([{ label: ".vscode/tasks.json", path: tasks, data: new TextEncoder().encode("{}"), expect: "absent" }]),
    ).rejects.toMatchObject(refused);
    await expect(fs.makeDirectory("sub/.vscode", { parents: true })).rejects.toMatchObject(refused);
    await expect(fs.remove(".vscode/tasks.json", { recursive: false })).rejects.toMatchObject(refused);
    await expect(fs.remove(".vscode", { recursive: true })).rejects.toMatchObject(refused);
    await expect(fs.rename("src/a.ts", ".vscode/tasks.json", { overwrite: true })).rejects.toMatchObject(refused);
    await expect(fs.rename(".vscode/tasks.json", "src/tasks.json", { overwrite: false })).rejects.toMatchObject(refused);
    expect(await readFile(join(root, ".vscode/tasks.json"), "utf8")).toBe(TASKS);
  });

  it("createFile is refused with the flag's name, new file or overwrite", async () => {
    const d = await dispatcher(root);
    const created = await d.failure("createFile", { filePath: ".vscode/launch.json", content: "{}" });
    expect(created.code).toBe("permission_denied");
    expect(created.suggestion).toMatch(/--allow-vscode-dir-writes/);
    const over = await d.failure("createFile", {
      filePath: ".vscode/tasks.json",
      content: TASKS.replace("make", "sh -c evil"),
      overwrite: true,
    });
    expect(over.code).toBe("permission_denied");
    expect(await readFile(join(root, ".vscode/tasks.json"), "utf8")).toBe(TASKS);
  });

  it("leaves look-alikes writable, and with --allow-vscode-dir-writes writes there as anywhere", async () => {
    for (const path of ["src/vscode/x.ts", "docs/.vscodeignore", "src/code-workspace.md"]) {
      await fs.makeDirectory(path.split("/").slice(0, -1).join("/"), { parents: true });
      await expect(fs.writeFile(path, "ok")).resolves.toBeDefined();
    }
    await open.writeFile(".vscode/extensions.json", '{ "recommendations": [] }\n');
    expect(await readFile(join(root, ".vscode/extensions.json"), "utf8")).toBe('{ "recommendations": [] }\n');
  });
});
