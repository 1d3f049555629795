// The child-bridge capability's own rules, on real processes that stand in for a bridge (a node
// script that says where it listens, as the bridge's log does, and then waits): at most
// MAX_CHILD_BRIDGES run, one folder has one child, a child that exits before it listens is reported
// with its output, the environment it gets has none of this bridge's own settings, and a session's
// release stops only that session's children.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createNodeRuntime } from "../../../runtime/node.ts";
import { ChildBridges, MAX_CHILD_BRIDGES } from "../../../src/capabilities/child-bridges.ts";
import { tempWorkspaces, type TempWorkspaces } from "../../helpers/temp-workspace.ts";

const runtime = createNodeRuntime();
let temp: TempWorkspaces;
let root: string;
let children: ChildBridges;

// Writes its environment's bridge settings and token next to itself, says it listens, and waits.
const STAND_IN = `
const { writeFileSync } = require("node:fs");
const folder = process.argv[process.argv.indexOf("--workspace") + 1];
const seen = Object.keys(process.env).filter((k) => k.startsWith("CLAUDE_IDE_BRIDGE_") || k === "BRIDGE_BIND_ADDRESS");
writeFileSync(folder + "/env.json", JSON.stringify({ seen, token: process.env.CLAUDE_IDE_BRIDGE_TOKEN, user: process.env.USER_SETTING }));
if (folder.endsWith("broken")) { console.error("config_invalid: no such thing"); process.exit(2); }
console.error("[bridge] listening on http://127.0.0.1:4242 (WebSocket + http://127.0.0.1:4242/mcp) for " + folder);
setInterval(() => {}, 1000);
`;

const signal = new AbortController().signal;
const alive = (pid: number | undefined) => {
  try {
    process.kill(pid ?? -1, 0);
    return true;
  } catch {
    return false;
  }
};

beforeAll(async () => {
  temp = await tempWorkspaces("cib-children-");
  root = await temp.make("roots", { "a/x": "", "b/x": "", "c/x": "", "d/x": "", "broken/x": "" });
  const env = {
    ...runtime.env,
    CLAUDE_IDE_BRIDGE_TOKEN: "parent-token",
    CLAUDE_IDE_BRIDGE_CONFIG: "/etc/parent.json",
    USER_SETTING: "kept",
  };
  children = new ChildBridges(
    { ...runtime, env },
    { launch: { command: process.execPath, args: ["-e", STAND_IN, "--"] }, spawnRoots: [root] },
  );
});

afterAll(async () => {
  children?.dispose();
  await temp?.remove();
});

it("caps the children, reuses a folder's child, and releases only the ending session's", async () => {
  const a = await children.start("s1", join(root, "a"), { signal });
  expect(a.mcpUrl).toBe("http://127.0.0.1:4242/mcp");
  const env = JSON.parse(await readFile(join(root, "a/env.json"), "utf8")) as { seen: string[]; token: string; user: string };
  // Its token, and the process-tree marker every child of the bridge carries (runtime/shared/process-groups.ts).
  expect(env.seen.filter((k) => k !== "CLAUDE_IDE_BRIDGE_TREE")).toEqual(["CLAUDE_IDE_BRIDGE_TOKEN"]);
  expect(env.token).not.toBe("parent-token");
  expect(env.token).toBe(a.token);
  expect(env.user).toBe("kept");

  // The same folder again, from another session, is the first session's child.
  expect(await children.start("s2", join(root, "a"), { signal })).toMatchObject({ pid: a.pid, session: "s1" });
  // Two calls for one folder at once start one child.
  const [b, again] = await Promise.all([
    children.start("s2", join(root, "b"), { signal }),
    children.start("s2", join(root, "b"), { signal }),
  ]);
  expect(again.pid).toBe(b.pid);
  const c = await children.start("s2", join(root, "c"), { signal });
  await expect(children.start("s1", join(root, "d"), { signal })).rejects.toMatchObject({ code: "limit_reached" });
  expect(MAX_CHILD_BRIDGES).toBe(3);

  children.releaseSession("s2");
  expect(children.of("s2")).toEqual([]);
  expect(children.of("s1").map((x) => x.folder)).toEqual([join(root, "a")]);
  expect(await children.stop("s1", join(root, "a"))).toBe(true);
  for (const pid of [a.pid, b.pid, c.pid]) {
    const deadline = Date.now() + 30_000;
    while (alive(pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(alive(pid)).toBe(false);
  }
});

it("reports a child that exits before it listens, with what it said", async () => {
  await expect(children.start("s3", join(root, "broken"), { signal })).rejects.toThrow(
    /exited with code 2 before it listened.*config_invalid: no such thing/,
  );
  expect(children.of("s3")).toEqual([]);
});
