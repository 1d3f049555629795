// testTraceToSource: a failing test's output (a stack, a traceback, a Go panic) turned into the
// workspace's source lines it passes through, each shown with its code. Frames in built JavaScript
// are mapped back through the file's source map (inline or beside it) to the TypeScript or other
// source that produced them; frames in dependencies and the runtime are counted, not shown.
import * as v from "valibot";
import type { ToolContext } from "../../capabilities/context.ts";
import { ToolError, errorMessage } from "../../errors.ts";
import { isAbsolute, isInside, relative } from "../../lib/paths/posix-path.ts";
import { besideFile, mapReference, SourceMap, type RawSourceMap } from "../../services/analysis/source-map.ts";
import { failureMessage, stackFrames, type StackFrame } from "../../services/analysis/stack-frames.ts";
import { isDependencyPath, isTestFile } from "../../services/conventions/test-files.ts";
import { defineTool } from "../platform/define-tool.ts";

/** Source maps of bundles run to megabytes; past this one is not read. */
const MAX_SOURCE_BYTES = 8 * 1024 * 1024;
const MAPPED_EXTENSIONS = /\.[cm]?js$/;

type LoadedMap = { map: SourceMap; from: string };

interface Located {
  frame: StackFrame;
  /** Root-relative source file and 1-based position, after the source map when there is one. */
  file: string;
  line: number;
  column?: number;
  via?: string;
}

export default defineTool({
  name: "testTraceToSource",
  title: "Test failure stack to source",
  description:
    "Maps a failing test's stack trace or traceback to the workspace source lines it passes through (built JavaScript through its source maps), with the code at each.",
  searchHint: "test failure stack trace traceback to source lines source map failing test where did it fail panic",
  input: v.strictObject({
    output: v.pipe(
      v.string(),
      v.minLength(1),
      v.maxLength(500_000),
      v.description("The failing test's output: a stack trace, Python traceback, Go panic or test log."),
    ),
    contextLines: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(10), v.description("Lines shown around each (default 1).")),
      1,
    ),
    maxFrames: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(50), v.description("Frames shown (default 12).")), 12),
  }),
  annotations: { readOnlyHint: true },
  async handler(input, ctx) {
    const frames = stackFrames(input.output);
    if (frames.length === 0)
      throw new ToolError("invalid_arguments", "No stack frame (file:line) was found in the output", {
        suggestion: "Pass the failing test's full output, with its stack trace or traceback (runTests shows it).",
      });
    const maps = new Map<string, Promise<LoadedMap | undefined>>();
    const located: Located[] = [];
    let outside = 0;
    const problems: string[] = [];
    for (const frame of frames) {
      const file = await workspaceFile(ctx, frame.file);
      if (file === undefined || isDependencyPath(file)) {
        outside += 1;
        continue;
      }
      located.push(await throughSourceMap(ctx, { frame, file, line: frame.line, ...col(frame.column) }, maps, problems));
    }
    const message = failureMessage(input.output);
    const out: string[] = [];
    if (message !== undefined) out.push(`Failure: ${message}`);
    if (located.length === 0) {
      out.push(
        `None of the ${frames.length} frame(s) is in the workspace's own code (all in dependencies or the runtime, or files not found).`,
      );
      return out.join("\n");
    }
    const firstCode = located.find((l) => !isTestFile(l.file));
    if (firstCode !== undefined)
      out.push(
        `Deepest frame in the code under test: ${firstCode.file}:${firstCode.line}${firstCode.frame.fn ? ` in ${firstCode.frame.fn}` : ""}`,
      );
    out.push(
      `Frames in the workspace (${located.length}, innermost first${outside > 0 ? `; ${outside} in dependencies or the runtime left out` : ""}):`,
    );
    for (const l of located.slice(0, input.maxFrames)) {
      const where = `${l.file}:${l.line}${l.column === undefined ? "" : `:${l.column}`}`;
      const tags = [l.frame.fn ? `in ${l.frame.fn}` : "", isTestFile(l.file) ? "(test)" : "", l.via ? `(mapped from ${l.via})` : ""].filter(
        (t) => t !== "",
      );
      out.push(`${where}${tags.length > 0 ? ` ${tags.join(" ")}` : ""}`);
      out.push(...(await codeAround(ctx, l, input.contextLines)));
    }
    if (located.length > input.maxFrames) out.push(`… ${located.length - input.maxFrames} more frame(s); raise maxFrames`);
    out.push(...problems);
    return out.join("\n");
  },
});

function col(column: number | undefined): { column?: number } {
  return column === undefined ? {} : { column };
}

/** A frame's file as a root-relative path of an existing file, or undefined (outside, a runtime module, gone). */
async function workspaceFile(ctx: ToolContext, printed: string): Promise<string | undefined> {
  if (/^(?:node|bun|deno|ext):/.test(printed) || printed.startsWith("<")) return undefined;
  let path = printed;
  if (printed.startsWith("file://")) {
    if (!URL.canParse(printed)) return undefined;
    path = decodeURIComponent(new URL(printed).pathname);
  }
  if (isAbsolute(path)) {
    if (!isInside(path, ctx.fs.root)) return undefined;
    path = relative(ctx.fs.root, path);
  }
  const stat = await ctx.fs.entryStat(path).catch(() => undefined);
  return stat?.isFile ? ctx.fs.relative(await ctx.fs.resolve(path)) : undefined;
}

async function throughSourceMap(
  ctx: ToolContext,
  at: Located,
  maps: Map<string, Promise<LoadedMap | undefined>>,
  problems: string[],
): Promise<Located> {
  if (!MAPPED_EXTENSIONS.test(at.file)) return at;
  const map =
    maps.get(at.file) ??
    loadMap(ctx, at.file).catch((err: unknown) => {
      problems.push(`The source map of ${at.file} could not be read (${errorMessage(err)}): its frames are shown as built.`);
      return undefined;
    });
  maps.set(at.file, map);
  const loaded = await map;
  const original = loaded?.map.originalOf(at.line, at.column);
  if (loaded === undefined || original === undefined) return at;
  const source = await workspaceFile(ctx, besideFile(loaded.from, original.source));
  if (source === undefined) return at;
  return { frame: at.frame, file: source, line: original.line, column: original.column, via: `${at.file}:${at.line}` };
}

async function loadMap(ctx: ToolContext, file: string): Promise<LoadedMap | undefined> {
  const ref = mapReference(await ctx.fs.readText(file, { maxBytes: MAX_SOURCE_BYTES }));
  if (ref === undefined) return undefined;
  if ("inline" in ref) return { map: new SourceMap(ref.inline), from: file };
  const mapFile = besideFile(file, ref.path);
  const raw = JSON.parse(await ctx.fs.readText(mapFile, { maxBytes: MAX_SOURCE_BYTES })) as RawSourceMap;
  return { map: new SourceMap(raw), from: mapFile };
}

async function codeAround(ctx: ToolContext, at: Located, context: number): Promise<string[]> {
  const text = await ctx.fs.readText(at.file, { maxBytes: MAX_SOURCE_BYTES }).catch(() => undefined);
  if (text === undefined) return ["    (source not readable)"];
  const lines = text.split(/\r?\n/);
  const out: string[] = [];
  const width = String(Math.min(lines.length, at.line + context)).length;
  for (let n = Math.max(1, at.line - context); n <= Math.min(lines.length, at.line + context); n++)
    out.push(`  ${n === at.line ? ">" : " "} ${String(n).padStart(width)} | ${lines[n - 1]}`);
  return out;
}
