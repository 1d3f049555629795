// The active folder's view of the jail, and setActiveWorkspaceFolder's answer in a one-folder
// workspace, on the real jail and the bridge's own tool environment (in-process, no bridge).
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createNodeRuntime } from "../../../runtime/node.ts";
import { ActiveFolders, rootedAt } from "../../../src/capabilities/active-folder.ts";
import { ToolError } from "../../../src/errors.ts";
import { createWorkspace, type Workspace } from "../../../src/security/jail/workspace-jail.ts";
import setActiveWorkspaceFolder from "../../../src/tools/workspace/set-active-workspace-folder.ts";
import { makeToolContext } from "../../helpers/tool-context.ts";
import { tempWorkspaces, type TempWorkspaces } from "../../helpers/temp-workspace.ts";

const runtime = createNodeRuntime();
let temp: TempWorkspaces;
let root: string;
let second: string;
let jail: Workspace;

beforeAll(async () => {
  temp = await tempWorkspaces("cib-active-unit-");
  root = await temp.make("root", { "a.txt": "root\n", "sub/b.txt": "sub\n" });
  second = await temp.make("second", { "a.txt": "second\n" });
  jail = await createWorkspace(runtime.fs, { root, folders: [second] });
});

afterAll(() => temp?.remove());

it("resolves relative paths in the chosen folder and names paths from it, the rest of the jail unchanged", async () => {
  const view = rootedAt(jail, jail.folders[1] as (typeof jail.folders)[number]);
  expect(view.root).toBe(second);
  expect(view.folders).toEqual([second, root]);
  expect(await view.resolve("a.txt")).toBe(join(second, "a.txt"));
  expect(await view.resolve(".")).toBe(second);
  expect(await view.resolve(join(root, "sub/b.txt"))).toBe(join(root, "sub/b.txt"));
  expect(view.relative(join(second, "a.txt"))).toBe("a.txt");
  expect(view.relative(join(root, "a.txt"))).toBe(join(root, "a.txt"));
  await expect(view.resolve("../root/../../etc/passwd")).rejects.toMatchObject({ code: "outside_workspace" });
});

it("keeps a choice per session until the session is released", () => {
  const folders = new ActiveFolders(runtime.fs, jail);
  folders.choose("s1", jail.folders[1] as (typeof jail.folders)[number]);
  expect(folders.fsOf("s1")?.root).toBe(second);
  expect(folders.fsOf("s2")).toBeUndefined();
  folders.releaseSession("s1");
  expect(folders.fsOf("s1")).toBeUndefined();
  expect(() => folders.choose("s1", join(root, "sub") as (typeof jail.folders)[number])).toThrow(/not a folder/);
});

it("says so when the workspace has one folder", async () => {
  const ctx = await makeToolContext(root);
  const handler = setActiveWorkspaceFolder.handlers.headless;
  if (handler === undefined) throw new Error("setActiveWorkspaceFolder has no headless handler");
  expect(await handler({ folder: "root" }, ctx)).toEqual({ activeFolder: root, previous: root, folders: [root] });
  const refused = await handler({ folder: "sub" }, ctx).catch((err: unknown) => err);
  expect(refused).toBeInstanceOf(ToolError);
  expect((refused as ToolError).suggestion).toContain(`This workspace has one folder, ${root}`);
  expect((refused as ToolError).suggestion).toContain("spawnWorkspace");
});
