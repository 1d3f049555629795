// The activity log on disk (src/capabilities/activity/activity-file.ts) through the real Node Fs port:
// the file's mode, its rotation at the log's capacity, what a restarted bridge reads back, and a line
// torn by a crash.
import { appendFile, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createNodeFs } from "../../../runtime/shared/fs.ts";
import { activityFilePath, parseEntries, persistActivity } from "../../../src/capabilities/activity/activity-file.ts";
import { ActivityLog } from "../../../src/capabilities/activity/activity-log.ts";

const fs = createNodeFs();
const PORT = 41234;
let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "cib-activity-"));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const call = (tool: string, n: number) => ({ tool, session: `s${n % 2}`, durationMs: n, outcome: "ok", resultChars: 10 * n });
const linesOf = async (path: string) => (await readFile(path, "utf8")).split("\n").filter((l) => l !== "");

describe("persistActivity", () => {
  it("writes the entries as JSON lines readable by the owner only", async () => {
    const log = new ActivityLog();
    const errors: string[] = [];
    // The folder does not exist yet: the first write makes it, 0700.
    const logsDir = join(dir, "ide");
    const file = await persistActivity(log, { fs, dir: logsDir, port: PORT, onError: (m) => errors.push(m) });
    log.recordCall(call("readFile", 3));
    log.append({ source: "session", event: "session.opened", detail: { transport: "ws" } });
    await file.close();
    const path = activityFilePath(logsDir, PORT);
    expect(path).toBe(join(logsDir, `activity-${PORT}.jsonl`));
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect((await stat(logsDir)).mode & 0o777).toBe(0o700);
    const lines = await linesOf(path);
    expect(lines.map((l) => JSON.parse(l).kind)).toEqual(["call", "event"]);
    expect(JSON.parse(lines[0] ?? "{}")).toMatchObject({ tool: "readFile", session: "s1", durationMs: 3, outcome: "ok", resultChars: 30 });
    expect(errors).toEqual([]);
  });

  it("rotates the file once it holds a capacity of new entries, keeping two files at most", async () => {
    const log = new ActivityLog({ capacity: 5 });
    const file = await persistActivity(log, { fs, dir, port: PORT });
    for (let n = 1; n <= 4; n++) log.recordCall(call("t", n));
    await file.flush();
    expect(await linesOf(activityFilePath(dir, PORT))).toHaveLength(4);
    await expect(stat(activityFilePath(dir, PORT, { rotated: true }))).rejects.toThrow();

    for (let n = 5; n <= 7; n++) log.recordCall(call("t", n));
    await file.flush();
    // The 5 entries written since the start moved to the rotated file; the current one starts after them.
    const rotated = (await linesOf(activityFilePath(dir, PORT, { rotated: true }))).map((l) => JSON.parse(l).seq);
    expect(rotated).toEqual([1, 2, 3, 4]);
    expect((await linesOf(activityFilePath(dir, PORT))).map((l) => JSON.parse(l).seq)).toEqual([5, 6, 7]);
    expect((await stat(activityFilePath(dir, PORT, { rotated: true }))).mode & 0o777).toBe(0o600);

    for (let n = 8; n <= 13; n++) log.recordCall(call("t", n));
    await file.close();
    // A second rotation replaces the first rotated file: the history is bounded to two files.
    const again = (await linesOf(activityFilePath(dir, PORT, { rotated: true }))).map((l) => JSON.parse(l).seq);
    expect(again).toEqual([5, 6, 7]);
    expect((await linesOf(activityFilePath(dir, PORT))).length).toBeLessThanOrEqual(5);
  });

  it("reads the history back after a restart, numbered before what the new bridge records", async () => {
    const first = new ActivityLog({ capacity: 10 });
    const file = await persistActivity(first, { fs, dir, port: PORT });
    for (let n = 1; n <= 6; n++) first.recordCall(call(`tool${n}`, n));
    await file.close();

    const second = new ActivityLog({ capacity: 10 });
    const reopened = await persistActivity(second, { fs, dir, port: PORT });
    expect(second.entries().map((e) => (e.kind === "call" ? e.tool : e.event))).toEqual([
      "tool1",
      "tool2",
      "tool3",
      "tool4",
      "tool5",
      "tool6",
    ]);
    expect(second.lastSeq).toBe(6);
    second.recordCall(call("after", 7));
    await reopened.close();
    const seqs = (await linesOf(activityFilePath(dir, PORT))).map((l) => JSON.parse(l).seq);
    expect(seqs).toEqual([1, 2, 3, 4, 5, 6, 7]);
    // Another port's bridge keeps its own file and reads nothing of this one.
    const other = new ActivityLog();
    await (await persistActivity(other, { fs, dir, port: PORT + 1 })).close();
    expect(other.entries()).toEqual([]);
  });

  it("tolerates a line torn by a crash and lines that are not entries", async () => {
    const log = new ActivityLog();
    const file = await persistActivity(log, { fs, dir, port: PORT });
    log.recordCall(call("kept", 1));
    log.recordCall(call("kept", 2));
    await file.close();
    const path = activityFilePath(dir, PORT);
    await appendFile(path, '{"kind":"call","seq":3,"at":1,"tool":"tor');
    const restarted = new ActivityLog();
    const reopened = await persistActivity(restarted, { fs, dir, port: PORT });
    expect(restarted.entries().map((e) => e.seq)).toEqual([1, 2]);
    // The next write leaves a whole file again.
    restarted.recordCall(call("next", 3));
    await reopened.close();
    expect((await linesOf(path)).map((l) => JSON.parse(l).seq)).toEqual([1, 2, 3]);

    await writeFile(
      path,
      ['{"seq":1}', "not json", '{"kind":"event","seq":2,"at":5,"source":"x","event":"y","detail":{}}', "[]"].join("\n"),
    );
    expect(parseEntries(await readFile(path, "utf8")).map((e) => e.seq)).toEqual([2]);
  });

  it("reports a write it could not make instead of throwing", async () => {
    const blocker = join(dir, "not-a-dir");
    await writeFile(blocker, "");
    const errors: string[] = [];
    const log = new ActivityLog();
    const file = await persistActivity(log, { fs, dir: blocker, port: PORT, onError: (m) => errors.push(m) });
    log.recordCall(call("t", 1));
    await file.close();
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain(`could not write ${activityFilePath(blocker, PORT)}`);
  });
});
