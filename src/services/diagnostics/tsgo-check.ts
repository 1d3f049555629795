// One TypeScript project checked by TypeScript 7's compiler (`tsgo -p <tsconfig> --noEmit`), as
// `tsc -p` in the project's CI would: every error of every file in its program, with the list of
// those files (--listFiles), so what it checked is known rather than assumed. The compiler reads the
// project's config and runs none of its code: tsconfig's compilerOptions.plugins are language
// service plugins, which the command-line compiler never loads (TypeScript 7 loads no JavaScript at
// all). What it could write is sent away from the workspace or turned off: --noEmit writes no
// output, but a composite or incremental project still writes its .tsbuildinfo next to its config
// (so does `tsgo -b --noEmit`, which is why it is not used), so the build info goes to the run's
// private directory; and a tsconfig's `generateTrace` (a directory anywhere, filled with trace
// files) is overridden by /dev/null, which is no directory, so tracing does not start (an empty
// value would mean the working directory).
import type { ToolContext } from "../../capabilities/context.ts";
import { pathArgument } from "../../capabilities/exec/toolchain.ts";
import { checkerFailure } from "./checker-failure.ts";
import type { Diagnostic } from "./diagnostic.ts";
import { parseTscOutput } from "./parsers/tsc-output.ts";

const MAX_OUTPUT_BYTES = 16 * 1024 * 1024;
/** An error about the configuration or the command line, with no place in a file. */
const GLOBAL_ERROR = /^error TS(\d+): (.*)$/;
/** A file of the compiler's own standard library, as --listFiles names it. */
const COMPILER_LIB = /\/lib\/lib\.[\w.]+\.d\.ts$/;
/** "Output file ... has not been built from source file ...": the project imports a referenced project's build output. */
const NOT_BUILT = "TS6305";
/** The output file a TS6305 names, absolute. */
const NOT_BUILT_OUTPUT = /^Output file '([^']+)' has not been built/;

export interface ProjectCheck {
  /** Its errors in workspace files (root-relative), each with the project named in `source`. */
  diagnostics: Diagnostic[];
  /** The workspace files of its program (root-relative): each one was checked. */
  files: string[];
  /** Diagnostics in files outside the workspace (a config's include or references pointing out), left out. */
  outside: number;
  /** Its program reads files outside the workspace besides the compiler's own lib files (a parent folder's node_modules). */
  readsOutside?: boolean;
  /** Killed at its time limit. */
  timedOut?: boolean;
  /** Why it checked nothing (a config it cannot read, a crash, inputs it needs built first). */
  failed?: string;
  /**
   * For a refusal that stays the same while what it was computed from does (TS6305: a referenced
   * project's output not built): the workspace files of its program and the missing outputs it
   * named, so the refusal is kept under the same proof as an answer (kept-answers.ts).
   */
  refusedOn?: string[];
}

/**
 * The compiler's argv that checks `project` (root-relative) and writes nothing the project's config
 * points at: the build info and the trace go to `scratch`, the run's private directory (exec's
 * report directory, removed after the run). tsgo turns a trace on /dev/null off; tsc 5.9 fails on
 * it, so it traces into the scratch directory (only a config that asks for a trace costs the time).
 */
export function compilerCheckArgs(compiler: "tsgo" | "tsc", opts: { project: string; scratch: string; listOnly?: boolean }): string[] {
  const { project, scratch } = opts;
  const check = opts.listOnly === true ? ["--listFilesOnly"] : ["--noEmit", "--listFiles"];
  const trace = compiler === "tsgo" ? "/dev/null" : `${scratch}/trace`;
  return [
    "-p",
    pathArgument(project),
    ...check,
    "--pretty",
    "false",
    "--tsBuildInfoFile",
    `${scratch}/build-info`,
    "--generateTrace",
    trace,
  ];
}

/** The private directory of a run, from the report path exec gives its argv function. */
export const scratchOf = (reportPath: string): string => reportPath.slice(0, reportPath.lastIndexOf("/"));

/** `tsgo -p project --noEmit`, project root-relative, run from the workspace root. */
export async function checkTsProject(ctx: ToolContext, project: string, opts: { timeoutMs: number }): Promise<ProjectCheck> {
  const root = ctx.fs.root;
  const result = await ctx.exec.runToolchain("tsgo", {
    args: (report) => compilerCheckArgs("tsgo", { project, scratch: scratchOf(report) }),
    timeoutMs: opts.timeoutMs,
    maxOutputBytes: MAX_OUTPUT_BYTES,
    env: { NO_COLOR: "1" },
  });
  if (result.timedOut) return { diagnostics: [], files: [], outside: 0, timedOut: true };
  const source = `tsgo (${project})`;
  const found = parseTscOutput(result.stdout, root).map((d) => ({ ...d, source }));
  const files: string[] = [];
  let readsOutside = false;
  for (const line of result.stdout.split("\n")) {
    if (line.startsWith(`${root}/`)) files.push(line.slice(root.length + 1).trimEnd());
    else if (line.startsWith("/") && !COMPILER_LIB.test(line.trimEnd())) readsOutside = true;
    const global = GLOBAL_ERROR.exec(line);
    if (global !== null)
      found.push({ file: project, line: 1, column: 1, severity: "error", code: `TS${global[1]}`, message: global[2] ?? "", source });
  }
  const inside = found.filter((d) => !d.file.startsWith("/") && !d.file.startsWith("../"));
  if (inside.some((d) => d.code === NOT_BUILT)) {
    const outputs = inside.filter((d) => d.code === NOT_BUILT).map((d) => NOT_BUILT_OUTPUT.exec(d.message)?.[1]);
    // An output named outside the workspace (or not named) has a state the cache cannot read: the refusal is not kept.
    const provable = !readsOutside && outputs.every((o) => o?.startsWith(`${root}/`) === true);
    return {
      diagnostics: [],
      files: [],
      outside: 0,
      failed: `${project} imports the build output of a project it references, which is not built (TS6305), so its compiler check differs from the editor's`,
      ...(provable ? { refusedOn: [...new Set([...files, ...outputs.map((o) => (o ?? "").slice(root.length + 1))])] } : {}),
    };
  }
  if (found.length === 0 && result.exitCode !== 0) {
    // Not the file list, nor the note that the trace turned off above did not start.
    const said = `${result.stderr}\n${result.stdout}`
      .split("\n")
      .filter((l) => !l.startsWith(`${root}/`) && !l.startsWith("Warning: Failed to start tracing"))
      .join("\n");
    return { diagnostics: [], files: [], outside: 0, failed: `tsgo exited ${result.exitCode}: ${checkerFailure("tsgo", said.trim())}` };
  }
  return { diagnostics: inside, files, outside: found.length - inside.length, ...(readsOutside ? { readsOutside } : {}) };
}
