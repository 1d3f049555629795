// JUnit XML, as pytest writes it with junit_family=xunit1 (which adds file and line): <testcase>
// elements with an optional <failure>, <error> or <skipped> child. A small tolerant reader of just
// that, rather than an XML library: the format is flat and the report is the bridge's own file.
import { shortMessage, type ParsedRun, type TestFailure } from "./test-run.ts";

const TESTCASE = /<testcase\b([^>]*?)(?:\/>|>([\s\S]*?)<\/testcase>)/g;

export function parseJunitXml(xml: string | undefined): ParsedRun {
  if (xml === undefined || !/<testsuite/.test(xml)) return { passed: 0, failed: 0, skipped: 0, failures: [], unreadable: true };
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  const failures: TestFailure[] = [];
  for (const m of xml.matchAll(TESTCASE)) {
    const attrs = attributes(m[1] ?? "");
    const body = m[2] ?? "";
    const problem = /<(failure|error)\b([^>]*?)(?:\/>|>([\s\S]*?)<\/\1>)/.exec(body);
    if (problem !== null) {
      failed++;
      const detail = attributes(problem[2] ?? "").message ?? "";
      const failure: TestFailure = { test: [attrs.classname, attrs.name].filter(Boolean).join("::"), message: shortMessage(detail || decode(problem[3] ?? "") || problem[1] || "failed") };
      if (attrs.file !== undefined) failure.file = attrs.file;
      // pytest writes the 0-based line of the test function.
      if (attrs.line !== undefined && /^\d+$/.test(attrs.line)) failure.line = Number(attrs.line) + 1;
      failures.push(failure);
    } else if (/<skipped\b/.test(body)) skipped++;
    else passed++;
  }
  return { passed, failed, skipped, failures };
}

function attributes(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of text.matchAll(/([\w:.-]+)="([^"]*)"/g)) out[m[1] ?? ""] = decode(m[2] ?? "");
  return out;
}

function decode(text: string): string {
  return text
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCodePoint(Number(n)))
    .replace(/&#x([0-9a-f]+);/gi, (_, n: string) => String.fromCodePoint(Number.parseInt(n, 16)))
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, "&");
}
