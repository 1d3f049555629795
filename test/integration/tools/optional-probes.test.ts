// requires.optionalProbes: a tool that uses an executable when present (rg, git) and has a built-in
// fallback must run whether or not it is there, and ctx.exec must let it run the executable.
import { mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as v from "valibot";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defineTool } from "../../../src/tools/platform/define-tool.ts";
import { defineToolset } from "../../../src/tools/platform/toolset.ts";
import { dispatcher } from "../../helpers/tool-dispatch.ts";

let root: string;

beforeAll(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), "cib-optional-")));
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const uses = (command: string) =>
  defineTool({
    name: `uses_${command.replace(/[^a-z]/g, "")}`,
    description: "Runs an optional executable.",
    searchHint: "optional probe",
    input: v.strictObject({}),
    annotations: { readOnlyHint: true },
    requires: { optionalProbes: [command] },
    async handler(_input, ctx) {
      if (!(await ctx.probes.get(command)).available) return "fallback";
      return (await ctx.exec.run(command, { args: [] })).exitCode === 0 ? "ran" : "failed";
    },
  });

describe("optional probes", () => {
  it("run the tool without the executable, and let ctx.exec run it when it is there", async () => {
    const toolsets = [defineToolset({ name: "optional", purpose: "tests", tools: [uses("true"), uses("cib-missing-executable")] })];
    const d = await dispatcher(root, { toolsets });
    expect(await d.text("uses_true")).toBe("ran");
    expect(await d.text("uses_cibmissingexecutable")).toBe("fallback");
  });
});
