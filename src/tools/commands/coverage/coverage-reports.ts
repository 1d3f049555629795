// Coverage reports as runners write them, read into per-file line coverage: lcov (c8, vitest,
// jest, nyc, cargo llvm-cov), istanbul's coverage-final.json and coverage-summary.json, Cobertura
// XML (pytest-cov, coverage.py, gcovr), coverage.py's JSON, and Go's cover profile. A report can be
// tens of megabytes, so every reader gives the event loop a turn within its Yielder's budget.
import { forEachLine } from "../../../lib/text/each-line.ts";
import { createYielder, type Yielder } from "../../../lib/yield-now.ts";
import { isRecord } from "../../../services/diagnostics/project-facts.ts";
import { relativeTo } from "../../../services/diagnostics/parsers/paths.ts";
import { xmlAttributes, xmlElements } from "../xml-elements.ts";

export interface FileCoverage {
  file: string;
  covered: number;
  total: number;
  /** Line numbers never run; undefined when the format does not say (coverage-summary.json). */
  uncovered?: number[];
}

export async function parseLcov(text: string, root: string, opts: { yielder?: Yielder } = {}): Promise<FileCoverage[]> {
  const yielder = opts.yielder ?? createYielder();
  const out: FileCoverage[] = [];
  let current: { file: string; hits: Map<number, number> } | undefined;
  await forEachLine(
    text,
    (line) => {
      if (line.startsWith("SF:")) current = { file: relativeTo(root, line.slice(3).trim()), hits: new Map() };
      else if (line.startsWith("DA:") && current !== undefined) {
        const [n, hits] = line.slice(3).split(",");
        current.hits.set(Number(n), Math.max(current.hits.get(Number(n)) ?? 0, Number(hits)));
      } else if (line.startsWith("end_of_record") && current !== undefined) {
        out.push(fromHits(current.file, current.hits));
        current = undefined;
      }
    },
    { yielder },
  );
  return out;
}

export async function parseIstanbulFinal(
  report: Record<string, unknown>,
  root: string,
  opts: { yielder?: Yielder } = {},
): Promise<FileCoverage[]> {
  const yielder = opts.yielder ?? createYielder();
  const out: FileCoverage[] = [];
  for (const [path, data] of Object.entries(report)) {
    await yielder.maybeYield();
    if (!isRecord(data) || !isRecord(data.statementMap) || !isRecord(data.s)) continue;
    const hits = new Map<number, number>();
    let count = 0;
    for (const [id, loc] of Object.entries(data.statementMap)) {
      const line = isRecord(loc) && isRecord(loc.start) && typeof loc.start.line === "number" ? loc.start.line : undefined;
      if (line !== undefined) hits.set(line, Math.max(hits.get(line) ?? 0, Number(data.s[id] ?? 0)));
      if (++count % 1024 === 0) await yielder.maybeYield();
    }
    out.push(fromHits(relativeTo(root, typeof data.path === "string" ? data.path : path), hits));
  }
  return out;
}

export async function parseIstanbulSummary(
  report: Record<string, unknown>,
  root: string,
  opts: { yielder?: Yielder } = {},
): Promise<FileCoverage[]> {
  const yielder = opts.yielder ?? createYielder();
  const out: FileCoverage[] = [];
  for (const [path, data] of Object.entries(report)) {
    await yielder.maybeYield();
    if (path === "total" || !isRecord(data) || !isRecord(data.lines)) continue;
    out.push({ file: relativeTo(root, path), covered: Number(data.lines.covered ?? 0), total: Number(data.lines.total ?? 0) });
  }
  return out;
}

export async function parseCobertura(xml: string, root: string, opts: { yielder?: Yielder } = {}): Promise<FileCoverage[]> {
  const yielder = opts.yielder ?? createYielder();
  const sources = [...xmlElements(xml, "source")].flatMap((s) => (s.body === undefined ? [] : [s.body.trim()]));
  const out: FileCoverage[] = [];
  let count = 0;
  for (const cls of xmlElements(xml, "class")) {
    await yielder.maybeYield();
    const name = xmlAttributes(cls.attrs).filename;
    if (name === undefined || cls.body === undefined) continue;
    const hits = new Map<number, number>();
    for (const line of xmlElements(cls.body, "line")) {
      const attrs = xmlAttributes(line.attrs);
      if (attrs.number === undefined || attrs.hits === undefined || !/^\d+$/.test(attrs.number) || !/^\d+$/.test(attrs.hits)) continue;
      const n = Number(attrs.number);
      hits.set(n, Math.max(hits.get(n) ?? 0, Number(attrs.hits)));
      if (++count % 1024 === 0) await yielder.maybeYield();
    }
    const base = sources.find((s) => s.startsWith(root));
    out.push(fromHits(relativeTo(root, name.startsWith("/") || base === undefined ? name : `${base}/${name}`), hits));
  }
  return merge(out);
}

export async function parseCoveragePyJson(
  report: Record<string, unknown>,
  root: string,
  opts: { yielder?: Yielder } = {},
): Promise<FileCoverage[]> {
  const yielder = opts.yielder ?? createYielder();
  const files = isRecord(report.files) ? report.files : {};
  const out: FileCoverage[] = [];
  for (const [path, data] of Object.entries(files)) {
    await yielder.maybeYield();
    if (!isRecord(data) || !isRecord(data.summary)) continue;
    const missing = Array.isArray(data.missing_lines) ? data.missing_lines.map(Number) : [];
    out.push({
      file: relativeTo(root, path),
      covered: Number(data.summary.covered_lines ?? 0),
      total: Number(data.summary.num_statements ?? 0),
      uncovered: missing,
    });
  }
  return out;
}

const MAX_BLOCK_LINES = 10_000;

/** "mode: set" then "module/path/file.go:12.5,14.2 3 1" (start.col,end.col statements count). */
export async function parseGoCoverProfile(
  text: string,
  modulePath: string | undefined,
  opts: { yielder?: Yielder } = {},
): Promise<FileCoverage[]> {
  const yielder = opts.yielder ?? createYielder();
  const files = new Map<string, { covered: number; total: number; uncovered: Set<number> }>();
  await forEachLine(
    text,
    (line) => {
      const m = /^(.+\.go):(\d+)\.\d+,(\d+)\.\d+ (\d+) (\d+)$/.exec(line);
      if (m === null) return;
      let file = m[1] ?? "";
      if (modulePath !== undefined && file.startsWith(`${modulePath}/`)) file = file.slice(modulePath.length + 1);
      const entry = files.get(file) ?? { covered: 0, total: 0, uncovered: new Set<number>() };
      const statements = Number(m[4]);
      entry.total += statements;
      if (Number(m[5]) > 0) entry.covered += statements;
      // A block spans its lines; a forged end line must not make this loop a billion times.
      else for (let n = Number(m[2]), last = Math.min(Number(m[3]), n + MAX_BLOCK_LINES); n <= last; n++) entry.uncovered.add(n);
      files.set(file, entry);
    },
    { yielder },
  );
  return [...files].map(([file, e]) => ({ file, covered: e.covered, total: e.total, uncovered: [...e.uncovered].sort((a, b) => a - b) }));
}

function fromHits(file: string, hits: ReadonlyMap<number, number>): FileCoverage {
  const lines = [...hits.entries()].sort((a, b) => a[0] - b[0]);
  return {
    file,
    covered: lines.filter(([, h]) => h > 0).length,
    total: lines.length,
    uncovered: lines.filter(([, h]) => h === 0).map(([n]) => n),
  };
}

/** Cobertura lists a file once per class in it. */
function merge(files: readonly FileCoverage[]): FileCoverage[] {
  const byName = new Map<string, FileCoverage>();
  for (const f of files) {
    const seen = byName.get(f.file);
    byName.set(
      f.file,
      seen === undefined
        ? f
        : {
            file: f.file,
            covered: seen.covered + f.covered,
            total: seen.total + f.total,
            uncovered: [...(seen.uncovered ?? []), ...(f.uncovered ?? [])].sort((a, b) => a - b),
          },
    );
  }
  return [...byName.values()];
}

/** "3-5, 9, 12-14", ending in "..." once longer than `maxChars`. */
export function lineRanges(lines: readonly number[], maxChars = Number.POSITIVE_INFINITY): string {
  let out = "";
  for (let i = 0; i < lines.length; i++) {
    const start = lines[i] ?? 0;
    let end = start;
    while (lines[i + 1] === end + 1) end = lines[++i] ?? end;
    out += `${out === "" ? "" : ", "}${start === end ? String(start) : `${start}-${end}`}`;
    if (out.length > maxChars) return `${out.slice(0, maxChars)}...`;
  }
  return out;
}
