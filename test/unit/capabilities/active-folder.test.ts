// The active folder's view of the jail, which folders a session may pick (the jail's for all; its
// client's roots only for a session marked local, never one holding the home directory), and
// setActiveWorkspaceFolder's answer in a one-folder workspace, on the real jail and the bridge's own
// tool environment (in-process, no bridge).
import { join } from "node:path";
import { pathToFileURL } from "node:url";
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
let elsewhere: string;
let home: string;
let jail: Workspace;

beforeAll(async () => {
  temp = await tempWorkspaces("cib-active-unit-");
  root = await temp.make("root", { "a.txt": "root\n", "sub/b.txt": "sub\n" });
  second = await temp.make("second", { "a.txt": "second\n" });
  elsewhere = await temp.make("elsewhere", { "c.txt": "elsewhere\n", ".git/config": "[core]\n" });
  home = await temp.make("home/me", {});
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

it("keeps a choice per session until the session is released", async () => {
  const folders = new ActiveFolders(runtime.fs, jail, { home });
  const none = { extensionFolders: [] };
  await folders.choose("s1", second, none);
  expect(folders.fsOf("s1", () => [])?.root).toBe(second);
  expect(folders.fsOf("s2", () => [])).toBeUndefined();
  folders.releaseSession("s1");
  expect(folders.fsOf("s1", () => [])).toBeUndefined();
  await expect(folders.choose("s1", join(root, "sub"), none)).rejects.toThrow(/not a folder this session may pick/);
});

it("offers a client's roots and the extension's folders to a local session only, never one holding the home directory", async () => {
  const folders = new ActiveFolders(runtime.fs, jail, { home });
  const roots = [elsewhere, join(root, "sub"), home, join(home, ".."), "/"].map((p) => ({ uri: pathToFileURL(p).href }));
  roots.push({ uri: "https://example.com/not-a-file" }, { uri: "file://otherhost/share" });
  // A session the bridge does not know is local (a remote OAuth client): its roots change nothing.
  await folders.offerRoots("remote", roots);
  expect(await folders.selectable("remote", [elsewhere])).toEqual([
    { path: root, from: "workspace" },
    { path: second, from: "workspace" },
  ]);
  await expect(folders.choose("remote", elsewhere, { extensionFolders: [elsewhere] })).rejects.toThrow(/may pick/);

  folders.markLocal("local");
  await folders.offerRoots("local", roots);
  expect(await folders.selectable("local", [second, home])).toEqual([
    { path: root, from: "workspace" },
    { path: second, from: "workspace" },
    { path: elsewhere, from: "client" },
    { path: join(root, "sub"), from: "client" },
  ]);
  const picked = await folders.choose("local", elsewhere, { extensionFolders: [] });
  expect(picked).toEqual([elsewhere, root, second]);
  const view = folders.fsOf("local", () => []);
  expect(await view?.resolve("c.txt")).toBe(join(elsewhere, "c.txt"));
  expect(await view?.resolve(join(root, "a.txt"))).toBe(join(root, "a.txt"));
  // The added folder's jail keeps the jail's refusals: nothing outside it, and no write into .git.
  await expect(view?.resolve("../home/me")).rejects.toMatchObject({ code: "outside_workspace" });
  await expect(view?.resolve(".git/config", { forWrite: true })).rejects.toMatchObject({ code: "permission_denied" });
  // A root inside the jail is a view of the jail itself.
  await folders.choose("local", join(root, "sub"), { extensionFolders: [] });
  expect(await folders.fsOf("local", () => [])?.resolve("b.txt")).toBe(join(root, "sub/b.txt"));
  // The client drops its roots: the one worked in is left.
  await folders.choose("local", elsewhere, { extensionFolders: [] });
  await folders.offerRoots("local", []);
  expect(folders.fsOf("local", () => [])).toBeUndefined();
  // The extension's folders, checked the same way; one the window no longer has is left.
  expect(await folders.selectable("local", [elsewhere, home])).toContainEqual({ path: elsewhere, from: "extension", reported: elsewhere });
  expect(await folders.selectable("local", [home])).toHaveLength(2);
  await folders.choose("local", elsewhere, { extensionFolders: [elsewhere] });
  expect(folders.fsOf("local", () => [elsewhere])?.root).toBe(elsewhere);
  expect(folders.fsOf("local", () => [])).toBeUndefined();
});

it("says so when the workspace has one folder", async () => {
  const ctx = await makeToolContext(root);
  const handler = setActiveWorkspaceFolder.handlers.headless;
  if (handler === undefined) throw new Error("setActiveWorkspaceFolder has no headless handler");
  expect(await handler({ folder: "root" }, ctx)).toEqual({ activeFolder: root, from: "workspace", previous: root, folders: [root] });
  const refused = await handler({ folder: "sub" }, ctx).catch((err: unknown) => err);
  expect(refused).toBeInstanceOf(ToolError);
  expect((refused as ToolError).suggestion).toContain(`This session has one folder, ${root}`);
  expect((refused as ToolError).suggestion).toContain("spawnWorkspace");
});
