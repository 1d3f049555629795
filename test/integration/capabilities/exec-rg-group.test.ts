// rg through ctx.exec.run: with its config off and none of the flags that make it run a program
// (--pre, -z, --hostname-bin), it starts nothing, so it runs as a process group alone, without the
// PID namespace (unshare and a shell) every other declared program gets; with any of them, or an
// argument that looks like one, it keeps the namespace. The search itself answers the same.
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createNodeRuntime } from "../../../runtime/node.ts";
import type { SpawnOptions } from "../../../src/ports/spawn.ts";
import { makeToolContext } from "../../helpers/tool-context.ts";

let base: string;
beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), "cib-rg-group-")));
  await mkdir(join(base, "src"));
  await writeFile(join(base, "src", "a.ts"), "export const needle = 1;\n");
});
afterAll(() => rm(base, { recursive: true, force: true }));

it.each([
  [["--no-config", "-n", "-e", "needle", "--", "src"], true],
  [["-n", "-e", "needle", "--", "src"], false],
  [["--no-config", "--pre", "cat", "-e", "needle", "--", "src"], false],
  [["--no-config", "-nz", "-e", "needle", "--", "src"], false],
  [["--no-config", "-e", "--hostname-bin=x", "--", "src"], false],
])("rg %j runs as a group only: %s", async (args, groupOnly) => {
  const node = createNodeRuntime();
  const seen: { cmd: string; opts: SpawnOptions }[] = [];
  const runtime = {
    ...node,
    spawn: (cmd: string, argv: string[], opts: SpawnOptions) => {
      seen.push({ cmd, opts });
      return node.spawn(cmd, argv, opts);
    },
  };
  const ctx = await makeToolContext(base, { runtime, executables: ["rg"] });
  const result = await ctx.exec.run("rg", { args });
  expect(seen).toHaveLength(1);
  expect(seen[0]?.opts.groupOnly === true).toBe(groupOnly);
  expect(seen[0]?.opts.ownPidNamespace === true).toBe(!groupOnly);
  if (!args.includes("--hostname-bin=x")) expect(result.stdout).toContain("needle");
});
