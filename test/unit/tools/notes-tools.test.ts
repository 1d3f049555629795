// Plans and the handoff note: stored in the workspace as Markdown a person can read, listed,
// updated step by step, refused when another session changed them meanwhile.
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parsePlan, renderPlan, slugOf } from "../../../src/services/notes/plan-file.ts";
import { dispatcher, type Dispatcher } from "../../helpers/tool-dispatch.ts";

let base: string;
let root: string;
let d: Dispatcher;

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), "cib-notes-")));
  root = join(base, "ws");
  await mkdir(root);
  d = await dispatcher(root);
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

interface PlanOut {
  id: string;
  title: string;
  status: string;
  steps: { n: number; text: string; done: boolean }[];
  notes: string;
  updatedAt: string;
  file: string;
}

describe("plans", () => {
  it("are created as Markdown checklists in .claude-ide-bridge/plans, git-ignored", async () => {
    const plan = await d.data<PlanOut>("createPlan", {
      title: "Port the parser!",
      steps: ["read the old one", "write tests"],
      notes: "Mind the\nedge cases.",
    });
    expect(plan).toMatchObject({
      id: "port-the-parser",
      status: "active",
      file: ".claude-ide-bridge/plans/port-the-parser.md",
      steps: [
        { n: 1, text: "read the old one", done: false },
        { n: 2, text: "write tests", done: false },
      ],
    });
    const text = await readFile(join(root, plan.file), "utf8");
    expect(text).toBe(
      `# Port the parser!\n\nStatus: active\nUpdated: ${plan.updatedAt}\n\n- [ ] read the old one\n- [ ] write tests\n\n## Notes\n\nMind the\nedge cases.\n`,
    );
    expect(await readFile(join(root, ".claude-ide-bridge/.gitignore"), "utf8")).toMatch(/^\*$/m);
    expect((await d.data<PlanOut>("createPlan", { title: "Port the parser" })).id).toBe("port-the-parser-2");
  });

  it("are read, updated step by step, listed with progress and deleted", async () => {
    const updated = await d.data<PlanOut>("updatePlan", {
      planId: "port-the-parser",
      completeSteps: [1],
      addSteps: ["ship"],
      notes: "Done soon.",
    });
    expect(updated.steps).toEqual([
      { n: 1, text: "read the old one", done: true },
      { n: 2, text: "write tests", done: false },
      { n: 3, text: "ship", done: false },
    ]);
    expect(await d.data<PlanOut>("getPlan", { planId: "port-the-parser" })).toEqual(updated);
    const removed = await d.data<PlanOut>("updatePlan", {
      planId: "port-the-parser",
      removeSteps: [2],
      reopenSteps: [1],
      status: "done",
      title: "Parser",
    });
    expect(removed).toMatchObject({
      title: "Parser",
      status: "done",
      steps: [
        { n: 1, text: "read the old one", done: false },
        { n: 2, text: "ship", done: false },
      ],
    });
    const listed = await d.data<{ directory: string; plans: { id: string; done: number; total: number }[] }>("listPlans");
    expect(listed.directory).toBe(".claude-ide-bridge/plans");
    expect(listed.plans.map((p) => p.id)).toEqual(["port-the-parser", "port-the-parser-2"]);
    expect((await d.data<{ plans: unknown[] }>("listPlans", { status: "active" })).plans).toHaveLength(1);
    expect(await d.data("deletePlan", { planId: "port-the-parser-2" })).toEqual({ planId: "port-the-parser-2", title: "Port the parser" });
    expect((await d.failure("getPlan", { planId: "port-the-parser-2" })).code).toBe("plan_not_found");
  });

  it("read a hand-edited file, and refuse ids that could name a path", async () => {
    await writeFile(join(root, ".claude-ide-bridge/plans/by-hand.md"), "# By hand\r\n* [X] one\r\n- [ ] two\r\nsome text\r\n");
    expect(await d.data<PlanOut>("getPlan", { planId: "by-hand" })).toMatchObject({
      title: "By hand",
      status: "active",
      steps: [
        { n: 1, text: "one", done: true },
        { n: 2, text: "two", done: false },
      ],
    });
    for (const planId of ["../../etc/passwd", "a/b", "UPPER", ".hidden", ""])
      expect((await d.failure("getPlan", { planId })).code).toBe("invalid_arguments");
    expect((await d.failure("updatePlan", { planId: "by-hand", completeSteps: [5] })).error).toBe(
      "Step 5 does not exist; by-hand has 2 steps",
    );
  });

  it("keep newlines in steps and titles from making lines of their own", () => {
    const plan = {
      id: "x",
      title: "a\nb",
      status: "active" as const,
      steps: [{ n: 1, text: "one\n- [x] fake", done: false }],
      notes: "",
      updatedAt: "t",
      file: "f",
    };
    expect(parsePlan(renderPlan(plan), { id: "x", file: "f" }).steps).toEqual([{ n: 1, text: "one - [x] fake", done: false }]);
    expect(slugOf("Ünïcödé — plan #1")).toBe("unicode-plan-1");
    expect(slugOf("!!!")).toBe("plan");
  });
});

describe("the handoff note", () => {
  it("says when there is none, is set, read back with when it was written, and replaced", async () => {
    expect(await d.text("getHandoffNote")).toBe("[no handoff note: none was set in this workspace; setHandoffNote leaves one]");
    const set = await d.data<{ file: string; updatedAt: string; characters: number }>("setHandoffNote", {
      note: "Done: parser.\nNext: tests.",
    });
    expect(set).toMatchObject({ file: ".claude-ide-bridge/handoff.md", characters: 26 });
    expect(await d.text("getHandoffNote")).toMatch(
      new RegExp(
        `^Done: parser\\.\\nNext: tests\\.\\n\\[handoff note written ${set.updatedAt.replace(/[.]/g, "\\.")} by session [0-9a-f-]{8}\\]$`,
      ),
    );
    await d.data("setHandoffNote", { note: "Replaced." });
    expect(await d.text("getHandoffNote")).toMatch(/^Replaced\.\n\[handoff note written/);
  });
});
