// No input changes the git command run. Every git tool field that reaches git's argv (refs,
// ranges, paths, remotes, messages, filters) is called with a benign value and with hostile ones
// (options, option-looking values, newlines, NUL, "..", very long, --upload-pack=, -c core.pager=),
// and the argv git received (logged by a PATH-first wrapper) is compared: either the tool refused
// the value before git saw it, or the hostile call's options are the benign call's with only the
// value swapped, in the same slot, and nothing after the separator ("--" / "--end-of-options")
// grew or shrank. No "PWNED" file may appear: each hostile option would create one if obeyed.
import { appendFile, cp, mkdtemp, readdir, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { literalPattern } from "../../../src/tools/git/get-symbol-history.ts";
import { gitToolset } from "../../../src/tools/git/index.ts";
import { gitArgvLog, type ArgvLog } from "../../helpers/git-argv-log.ts";
import { gitFixture, type GitFixture } from "../../helpers/git-fixture.ts";
import { dispatcher } from "../../helpers/tool-dispatch.ts";
import { toolErrorCode } from "../../helpers/tool-error.ts";

const HOSTILE = ["-x", "--upload-pack=touch PWNED", "-ccore.pager=touch PWNED", "--", "a\nb", "a\0b", "..", "x".repeat(5000)];

interface Field {
  tool: string;
  field: string;
  benign: string;
  args(value: string): Record<string, unknown>;
  /** Needs a fresh copy of the repository per call (it changes it). */
  writes?: boolean;
  /** How the tool spells the value in argv, when not verbatim. */
  encode?: (value: string) => string;
}

const FIELDS: Field[] = [
  { tool: "getGitLog", field: "range", benign: "main", args: (v) => ({ range: v }) },
  { tool: "getGitLog", field: "author", benign: "Test", args: (v) => ({ author: v }) },
  { tool: "getGitLog", field: "grep", benign: "initial", args: (v) => ({ grep: v }) },
  { tool: "getGitLog", field: "since", benign: "2000-01-01", args: (v) => ({ since: v }) },
  { tool: "getGitLog", field: "paths", benign: "a.txt", args: (v) => ({ paths: [v] }) },
  { tool: "getGitStatus", field: "path", benign: "a.txt", args: (v) => ({ path: v }) },
  { tool: "getGitDiff", field: "paths", benign: "a.txt", args: (v) => ({ paths: [v] }) },
  { tool: "getCommitDetails", field: "ref", benign: "main", args: (v) => ({ ref: v }) },
  { tool: "getDiffBetweenRefs", field: "base", benign: "main", args: (v) => ({ base: v }) },
  { tool: "getDiffBetweenRefs", field: "head", benign: "main", args: (v) => ({ base: "main", head: v }) },
  { tool: "gitBlame", field: "path", benign: "a.txt", args: (v) => ({ path: v }) },
  { tool: "gitBlame", field: "ref", benign: "main", args: (v) => ({ path: "a.txt", ref: v }) },
  { tool: "getSymbolHistory", field: "symbol", benign: "nomatch", args: (v) => ({ path: "a.txt", symbol: v }), encode: literalPattern },
  { tool: "getSymbolHistory", field: "path", benign: "a.txt", args: (v) => ({ path: v, startLine: 1, endLine: 1 }) },
  { tool: "getGitHotspots", field: "paths", benign: "a.txt", args: (v) => ({ paths: [v] }) },
  { tool: "gitAdd", field: "files", benign: "a.txt", args: (v) => ({ files: [v] }), writes: true },
  { tool: "gitCommit", field: "message", benign: "hello", args: (v) => ({ message: v, files: ["a.txt"] }), writes: true },
  { tool: "gitCommit", field: "files", benign: "a.txt", args: (v) => ({ message: "m", files: [v] }), writes: true },
  { tool: "gitCheckout", field: "branch", benign: "fresh", args: (v) => ({ branch: v, create: true }), writes: true },
  { tool: "gitCheckout", field: "base", benign: "main", args: (v) => ({ branch: "fresh", create: true, base: v }), writes: true },
  { tool: "gitStash", field: "message", benign: "wip", args: (v) => ({ message: v }), writes: true },
  { tool: "gitFetch", field: "remote", benign: "origin", args: (v) => ({ remote: v }), writes: true },
  { tool: "gitPull", field: "remote", benign: "origin", args: (v) => ({ remote: v }), writes: true },
  { tool: "gitPull", field: "branch", benign: "main", args: (v) => ({ remote: "origin", branch: v }), writes: true },
  { tool: "gitPush", field: "branch", benign: "topic", args: (v) => ({ branch: v }), writes: true },
  { tool: "gitPush", field: "remote", benign: "origin", args: (v) => ({ branch: "topic", remote: v }), writes: true },
];

let base: string;
let fx: GitFixture;
let log: ArgvLog;
let template: string;
let shared: string;

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), "cib-git-inject-")));
  fx = await gitFixture(base);
  log = await gitArgvLog(base, fx.env.PATH ?? "");
  template = join(base, "template");
  const seed = await fx.repo(join(base, "seed"), { "a.txt": "function start() {\n  return 1;\n}\n" });
  fx.git(base, "clone", "--quiet", "--bare", seed, join(template, "origin.git"));
  fx.git(template, "clone", "--quiet", "origin.git", "work");
  fx.git(join(template, "work"), "branch", "topic");
  // Relative, so each copy pushes to its own origin.git, not the template's.
  fx.git(join(template, "work"), "remote", "set-url", "origin", "../origin.git");
  shared = join(base, "shared");
  await cp(template, shared, { recursive: true });
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

let runs = 0;

/** Calls the tool; a writing one in its own copy of the repository, with a changed file to stage. */
async function callLogged(field: Field, value: string): Promise<{ calls: string[][]; isError: boolean; code?: string }> {
  let work = join(shared, "work");
  if (field.writes) {
    const dir = join(base, `run-${runs++}`);
    await cp(template, dir, { recursive: true });
    work = join(dir, "work");
    await appendFile(join(work, "a.txt"), "change\n");
  }
  const logged = await log.env();
  const d = await dispatcher(work, { toolsets: [gitToolset], runtime: fx.runtime(logged.env) });
  const result = await d.call(field.tool, field.args(value));
  const code = toolErrorCode(result);
  return { calls: await logged.calls(), isError: result.isError === true, ...(code === undefined ? {} : { code }) };
}

const SEPARATORS = new Set(["--", "--end-of-options"]);

function optionPart(argv: string[]): string[] {
  const cut = argv.findIndex((a) => SEPARATORS.has(a));
  return cut < 0 ? argv : argv.slice(0, cut);
}

/**
 * The options of a call (up to its first separator), with the value swapped back where it sits
 * inside an option (`--author=<value>`, `-L:<value>:file`), and how many arguments follow it.
 */
function shape(argv: string[], swaps: readonly (readonly [string, string])[]): string {
  const cut = argv.findIndex((a) => SEPARATORS.has(a));
  const swapOne = (a: string, [hostile, benign]: readonly [string, string]) =>
    a === hostile ? benign : a.indexOf(hostile, 1) > 0 ? a.slice(0, 1) + a.slice(1).split(hostile).join(benign) : a;
  const options = optionPart(argv).map((a) => swaps.reduce(swapOne, a));
  return JSON.stringify({ options, separator: cut < 0 ? null : argv[cut], operands: cut < 0 ? 0 : argv.length - cut - 1 });
}

describe.concurrent.each(FIELDS)("$tool $field", (field) => {
  let benignShapes: string[];
  let benignOptions: string[];

  beforeAll(async () => {
    const benign = await callLogged(field, field.benign);
    expect(benign.isError, `${field.tool} with ${field.benign} must work: ${benign.code ?? ""}`).toBe(false);
    benignShapes = benign.calls.map((argv) => shape(argv, [])).sort();
    benignOptions = benign.calls.flatMap(optionPart);
  });

  it.each(HOSTILE.map((h) => [JSON.stringify(h.length > 40 ? `${h.slice(0, 20)}…(${h.length})` : h), h]))(
    "%s cannot change the command",
    async (_name, hostile) => {
      const run = await callLogged(field, hostile);
      const swaps = [
        ...(field.encode ? [[field.encode(hostile), field.encode(field.benign)] as const] : []),
        [hostile, field.benign] as const,
      ];
      const hostileShapes = run.calls.map((argv) => shape(argv, swaps)).sort();
      // Each git call it made is one the benign value made too, with the value in the same slot.
      for (const s of hostileShapes) expect(benignShapes).toContain(s);
      // Fewer calls only when the tool stopped with an error (git refused, or the bridge did first).
      if (hostileShapes.length < benignShapes.length) expect(run.isError).toBe(true);
      // And no option of its own: option-looking text before a separator is either one the benign
      // call had too (the bridge's fixed options) or the value inside its option (`--author=<value>`).
      const own = new Set(benignOptions);
      const carriers = benignOptions
        .filter((arg) => arg.endsWith(field.benign) && arg !== field.benign)
        .map((arg) => arg.slice(0, -field.benign.length) + hostile);
      const added = run.calls.flatMap(optionPart).filter((arg) => !own.has(arg) && !carriers.includes(arg));
      if (hostile.startsWith("-")) expect(added.filter((arg) => arg.startsWith(hostile))).toEqual([]);
    },
  );
});

describe("nothing hostile ran", () => {
  it("left no PWNED file anywhere in the copies", async () => {
    const found = (await readdir(base, { recursive: true })).filter((p) => p.endsWith("PWNED"));
    expect(found).toEqual([]);
  });
});
