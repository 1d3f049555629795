// getCodeCoverage: line coverage from the newest coverage report a runner left in the workspace,
// worst-covered files first with their uncovered lines. It reads reports and runs nothing: the
// suggestion says how to make one with the project's runner.
import * as v from "valibot";
import { ToolError } from "../../errors.ts";
import type { ToolContext } from "../../capabilities/context.ts";
import { defineTool } from "../platform/define-tool.ts";
import { isRecord } from "../../services/diagnostics/project-facts.ts";
import { JsonTextError, parseJsonCooperatively } from "../../lib/text/cooperative-json.ts";
import { createYielder } from "../../lib/yield-now.ts";
import {
  lineRanges,
  parseCobertura,
  parseCoveragePyJson,
  parseGoCoverProfile,
  parseIstanbulFinal,
  parseIstanbulSummary,
  parseLcov,
  type FileCoverage,
} from "./coverage/coverage-reports.ts";
import { type Candidate, type Format, reportCandidates, reportDirectories } from "./coverage/report-locations.ts";

const MAX_REPORT_BYTES = 64 * 1024 * 1024;
const MAX_FILES = 50;
const MAX_RANGES_CHARS = 300;

const Coverage = v.object({ covered: v.number(), total: v.number(), percent: v.number() });

export default defineTool({
  name: "getCodeCoverage",
  title: "Code coverage",
  description:
    "Reads line coverage from the newest coverage report in the workspace (lcov, istanbul, Cobertura, coverage.py, go cover), worst-covered files first with uncovered lines.",
  searchHint: "code coverage: which lines are not covered by tests, uncovered lines, percent, lcov istanbul cobertura",
  input: v.strictObject({
    path: v.optional(v.pipe(v.string(), v.description("Only files under this path (relative to the workspace root)."))),
  }),
  output: v.object({
    report: v.pipe(v.string(), v.description("The report read, relative to the workspace root.")),
    namedBy: v.optional(v.pipe(v.string(), v.description("The config setting that names the report's place, when one does."))),
    otherReports: v.optional(
      v.pipe(v.array(v.string()), v.description("Older reports also in the workspace, not read (relative to the root).")),
    ),
    format: v.string(),
    reportAgeSeconds: v.pipe(v.number(), v.description("How old the report is: re-run the tests with coverage if the code changed since.")),
    totals: Coverage,
    files: v.array(
      v.object({
        file: v.string(),
        covered: v.number(),
        total: v.number(),
        percent: v.number(),
        uncovered: v.optional(v.pipe(v.string(), v.description("Uncovered line ranges."))),
      }),
    ),
    filesOmitted: v.optional(v.number()),
  }),
  annotations: { readOnlyHint: true },
  largeResult: true,
  async handler(input, ctx) {
    const found = await newestReport(ctx);
    const text = await ctx.fs.readText(found.path, { maxBytes: MAX_REPORT_BYTES }).catch((err: unknown) => {
      if (!(err instanceof ToolError) || err.code !== "file_too_large") throw err;
      throw new ToolError("file_too_large", `${found.path} is larger than the ${MAX_REPORT_BYTES / 1024 / 1024} MB read here`, {
        suggestion:
          "Write coverage for part of the project (e.g. vitest --coverage.include=src/area, pytest --cov=pkg.area), then call again.",
      });
    });
    // A report may name files deleted since; the filter need not exist.
    const prefix = input.path === undefined ? undefined : ctx.fs.relative(await ctx.fs.resolve(input.path, { mustExist: false }));
    const files = (await parse(ctx, found.format, text)).filter(
      (f) => prefix === undefined || prefix === "" || f.file === prefix || f.file.startsWith(`${prefix}/`),
    );
    const covered = files.reduce((n, f) => n + f.covered, 0);
    const total = files.reduce((n, f) => n + f.total, 0);
    const worst = files
      .map((f) => ({ f, percent: percent(f.covered, f.total) }))
      .sort((a, b) => a.percent - b.percent || b.f.total - a.f.total);
    // Uncovered ranges only for the files listed: a report of 10,000 files lists 50.
    const rows = worst.slice(0, MAX_FILES).map(({ f, percent }) => ({
      file: f.file,
      covered: f.covered,
      total: f.total,
      percent,
      ...(f.uncovered === undefined || f.uncovered.length === 0 ? {} : { uncovered: lineRanges(f.uncovered, MAX_RANGES_CHARS) }),
    }));
    const result = {
      report: found.path,
      ...(found.namedBy === undefined ? {} : { namedBy: found.namedBy }),
      ...(found.others.length === 0 ? {} : { otherReports: found.others }),
      format: found.format,
      reportAgeSeconds: found.ageSeconds,
      totals: { covered, total, percent: percent(covered, total) },
      files: rows,
    };
    return worst.length > MAX_FILES ? { ...result, filesOmitted: worst.length - MAX_FILES } : result;
  },
});

async function newestReport(ctx: ToolContext): Promise<Candidate & { ageSeconds: number; others: string[] }> {
  const candidates = await reportCandidates(ctx);
  const found: (Candidate & { mtimeMs: number })[] = [];
  for (const c of candidates) {
    const stat = await ctx.fs.stat(c.path).catch(() => undefined);
    if (stat?.isFile === true) found.push({ ...c, mtimeMs: stat.mtimeMs });
  }
  found.sort((a, b) => b.mtimeMs - a.mtimeMs);
  const best = found[0];
  if (best === undefined) throw await noReport(ctx, candidates);
  return {
    path: best.path,
    format: best.format,
    ...(best.namedBy === undefined ? {} : { namedBy: best.namedBy }),
    ageSeconds: Math.max(0, Math.round((Date.now() - best.mtimeMs) / 1000)),
    others: found.slice(1).map((f) => f.path),
  };
}

/** Where it looked, why nothing was there (a directory with an HTML report only, or no directory at all), and how to write one. */
async function noReport(ctx: ToolContext, candidates: readonly Candidate[]): Promise<ToolError> {
  const named = [...new Set(candidates.flatMap((c) => (c.namedBy === undefined ? [] : [`${c.namedBy}: ${dirOf(c.path)}`])))];
  const dirs = reportDirectories(candidates).filter((d) => d !== ".");
  const present: string[] = [];
  for (const dir of dirs) {
    const entries = await ctx.fs.list(dir).catch(() => undefined);
    if (entries !== undefined)
      present.push(
        `${dir}/ holds ${
          entries.length === 0
            ? "nothing"
            : entries
                .slice(0, 5)
                .map((e) => e.name)
                .join(", ")
        }`,
      );
  }
  const why =
    present.length > 0
      ? `${present.join("; ")}: no report in a format read here (lcov, istanbul json, Cobertura xml, coverage.py json, go cover profile); an html or text reporter alone writes none`
      : "no run with coverage has written a report in the workspace";
  const where = named.length > 0 ? `the places the config names (${named.join("; ")}) and the defaults` : "the default places";
  const target = candidates.find((c) => c.namedBy !== undefined);
  return new ToolError("not_detected", `No coverage report: ${why}. Looked in ${where}: ${candidates.map((c) => c.path).join(", ")}`, {
    suggestion: `Run the tests with a machine-readable coverage reporter first, e.g. runCommand vitest run --coverage --coverage.reporter=lcov, jest --coverage --coverageReporters=lcov, pytest --cov --cov-report=xml, go test -coverprofile=coverage.out ./...; ${target === undefined ? "they write to coverage/ (coverage.xml, coverage.out at the root)" : `this project's config sends them to ${dirOf(target.path)}/`}; then call again.`,
  });
}

function dirOf(path: string): string {
  return path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : ".";
}

async function parse(ctx: ToolContext, format: Format, text: string): Promise<FileCoverage[]> {
  const root = ctx.fs.root;
  const yielder = createYielder();
  const json = async (): Promise<Record<string, unknown>> => {
    try {
      const value = await parseJsonCooperatively(text, { yielder });
      if (isRecord(value)) return value;
    } catch (err) {
      if (!(err instanceof JsonTextError)) throw err;
    }
    throw new ToolError("unparsable_output", `The ${format} coverage report is not valid JSON`, {
      suggestion: "Run the tests with coverage again to rewrite it.",
    });
  };
  if (format === "lcov") return parseLcov(text, root, { yielder });
  if (format === "istanbul") return parseIstanbulFinal(await json(), root, { yielder });
  if (format === "istanbul-summary") return parseIstanbulSummary(await json(), root, { yielder });
  if (format === "cobertura") return parseCobertura(text, root, { yielder });
  if (format === "coverage.py") return parseCoveragePyJson(await json(), root, { yielder });
  const goMod = await ctx.fs.readText("go.mod", { maxBytes: 1024 * 1024 }).catch(() => "");
  return parseGoCoverProfile(text, /^module\s+(\S+)/m.exec(goMod)?.[1], { yielder });
}

function percent(covered: number, total: number): number {
  return total === 0 ? 100 : Math.round((covered / total) * 1000) / 10;
}
