// The scenario every language's debugger test runs, in one debug session: stop at a breakpoint set by
// a line's text, read a local, evaluate, step over, stop on a call line's 3rd hit (a hit count), step
// into the call and out again, a breakpoint on a line without code answered as not bound there, the
// uncaught failure with its stack, the end with the program's output; then a second session, stopped
// by a function breakpoint, whose MCP session ends mid-debugging and leaves no process behind; and
// each session's start and end published as debug.session events.
import { readdirSync, readFileSync } from "node:fs";
import { expect } from "vitest";
import type { BridgeEvents } from "../../../src/capabilities/events/bridge-events.ts";
import type { DebugClient } from "../../helpers/debug-harness.ts";
import { running } from "../../helpers/process-running.ts";
import { MASKED } from "../../../src/tools/debug/stop-view.ts";

interface Var {
  name: string;
  value: string;
}
interface Frame {
  name: string;
  file?: string;
  line: number;
}
interface Outcome {
  state: string;
  stop?: {
    reason: string;
    stack: Frame[];
    locals?: Var[];
    exception?: { id?: string; message?: string; stackTrace?: string };
    description?: string;
  };
  exitCode?: number;
  newOutput?: string;
  msToFirstStop?: number;
  breakpoints?: { status: string; line?: number; boundLine?: number; message?: string }[];
}

export interface ScenarioProgram {
  language: string;
  /** The program to run (a script or an executable) and its source file. */
  program: string;
  source: string;
  /** Lines of the source: the add function's first line, its return, the call in the loop, a trailing comment. */
  lines: { addBody: number; addReturn: number; call: number; noCode: number; stepIn?: number };
  /** The add function as the adapter names it in a function breakpoint. */
  functionName: string;
  /** The expression reading the loop's current element at the call line. */
  thirdValue: string;
  /** What the uncaught failure looks like. */
  /** exitCode undefined: the adapter does not report one (delve 1.20 sends no exited event). */
  failure: { reason: string; id: RegExp; exitCode: number | undefined };
}

const local = (o: Outcome, name: string) => o.stop?.locals?.find((x) => x.name === name)?.value;

export async function runScenario(client: DebugClient, p: ScenarioProgram): Promise<void> {
  const published: BridgeEvents["debug.session"][] = [];
  client.fixture.events.subscribe("debug.session", (e) => published.push(e));
  const pending = await client.data<{ breakpoints: { status: string; line: number }[] }>("setDebugBreakpoints", {
    file: p.source,
    breakpoints: [{ text: "total = a + b" }],
  });
  expect(pending.breakpoints).toEqual([{ file: p.source, line: p.lines.addBody, status: "pending" }]);

  const first = await client.data<Outcome>("startDebugging", { program: p.program, timeoutMs: 60_000 });
  console.log(`[debug] ${p.language}: startDebugging to first stop ${first.msToFirstStop} ms`);
  expect(first.breakpoints?.[0]?.status).toBe("verified");
  expect(first.state).toBe("stopped");
  expect(first.stop?.reason).toBe("breakpoint");
  expect(first.stop?.stack[0]).toMatchObject({ name: expect.stringContaining("add"), file: p.source, line: p.lines.addBody });
  expect(local(first, "a")).toBe("0");
  expect(local(first, "b")).toBe("1");

  const evaluated = await client.data<{ result: string }>("evaluateInDebugger", { expression: "a + b * 10" });
  expect(evaluated.result).toBe("10");

  const over = await client.data<Outcome>("debugStepOver", {});
  expect(over.stop?.stack[0]?.line).toBe(p.lines.addReturn);
  expect(local(over, "total")).toBe("1");

  // The call line's 3rd hit; and a line without code, which the adapter must not claim as bound there.
  const set = await client.data<{ breakpoints: { status: string; line: number; boundLine?: number }[] }>("setDebugBreakpoints", {
    file: p.source,
    breakpoints: [{ text: "acc = add(acc", hitCondition: "3" }, { line: p.lines.noCode }],
  });
  expect(set.breakpoints[0]).toMatchObject({ line: p.lines.call, status: "verified" });
  const noCode = set.breakpoints[1];
  expect(noCode?.line).toBe(p.lines.noCode);
  expect(
    noCode?.status === "unverified" || (noCode?.boundLine !== undefined && noCode.boundLine !== p.lines.noCode),
    JSON.stringify(noCode),
  ).toBe(true);

  const third = await client.data<Outcome>("debugContinue", {});
  expect(third.stop?.reason).toBe("breakpoint");
  expect(third.stop?.stack[0]?.line).toBe(p.lines.call);
  // Hits count from when the breakpoint was set, during the 1st iteration: the 3rd is the 4th value's.
  expect((await client.data<{ result: string }>("evaluateInDebugger", { expression: p.thirdValue })).result).toBe("4");

  const into = await client.data<Outcome>("debugStepIn", {});
  expect(into.stop?.stack[0]).toMatchObject({ name: expect.stringContaining("add"), line: p.lines.stepIn ?? p.lines.addBody });
  expect(local(into, "a")).toBe("6");
  expect(local(into, "b")).toBe("4");
  const out = await client.data<Outcome>("debugStepOut", {});
  expect(out.stop?.stack[0]?.name).toContain("main");
  expect(local(out, "api_token")).toBe(MASKED);

  await client.data("setDebugBreakpoints", { file: p.source, breakpoints: [] });
  const failure = await client.data<Outcome>("debugContinue", {});
  expect(failure.stop?.reason).toBe(p.failure.reason);
  expect(failure.stop?.exception?.id ?? "").toMatch(p.failure.id);
  expect(failure.stop?.stack.map((f) => f.name).join(" ")).toContain("main");
  expect(failure.newOutput).toContain("acc is 15");

  const end = await client.data<Outcome>("debugContinue", {});
  expect(end.state).toBe("ended");
  expect(end.exitCode).toBe(p.failure.exitCode);
  expect(await client.text("getDebugOutput", {})).toContain("acc is 15");
  const stopped = await client.data<{ wasRunning: boolean }>("stopDebugging", {});
  expect(stopped.wasRunning).toBe(false);

  // The client goes away mid-session: the adapter and the program it runs end with its MCP session.
  // This time by function name: it stops in add, wherever its first line is.
  await client.data("setDebugBreakpoints", { functions: [{ name: p.functionName }] });
  const byName = await client.data<Outcome>("startDebugging", { program: p.program, timeoutMs: 60_000 });
  expect(byName.breakpoints).toEqual([expect.objectContaining({ function: p.functionName, status: "verified" })]);
  expect(byName.stop?.stack[0]?.name).toContain("add");
  const session = client.latest();
  // The program's pid as the adapter told it, else (delve sends no process event) the adapter's children.
  const pids = [session.pid, ...(session.programPid === undefined ? childrenOf(session.pid) : [session.programPid])];
  expect(pids.length, "the adapter runs the program").toBeGreaterThanOrEqual(2);
  expect(
    pids.every((pid) => pid !== undefined && running(pid)),
    JSON.stringify(pids),
  ).toBe(true);
  client.endMcpSession();
  await session.stopped;
  expect(pids.filter((pid) => pid !== undefined && running(pid))).toEqual([]);

  // Each session's start and end reached automation's onDebugSession, the first with its exit code.
  const named = { language: p.language, name: p.program, via: "headless" };
  const firstEnd = { phase: "end", id: "debug-1", ...named, ...(p.failure.exitCode === undefined ? {} : { exitCode: p.failure.exitCode }) };
  await expect.poll(() => published.length, { timeout: 10_000 }).toBe(4);
  expect(published.slice(0, 3)).toEqual([
    { phase: "start", id: "debug-1", ...named },
    firstEnd,
    { phase: "start", id: "debug-2", ...named },
  ]);
  expect(published[3]).toMatchObject({ phase: "end", id: "debug-2", ...named });
}

/** The live processes whose parent is `pid` (Linux /proc). */
function childrenOf(pid: number | undefined): number[] {
  if (pid === undefined) return [];
  return readdirSync("/proc").flatMap((name) => {
    if (!/^\d+$/.test(name)) return [];
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      return parent === pid && running(Number(name)) ? [Number(name)] : [];
    } catch {
      return [];
    }
  });
}
