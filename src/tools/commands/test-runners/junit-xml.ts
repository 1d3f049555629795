// JUnit XML, as pytest writes it with junit_family=xunit1 (which adds file and line): <testcase>
// elements with an optional <failure>, <error> or <skipped> child. A small tolerant reader of just
// that, rather than an XML library: the format is flat and the report is the bridge's own file.
import { decodeXml, xmlAttributes, xmlElements, type XmlElement } from "../xml-elements.ts";
import { shortMessage, type ParsedRun, type TestFailure } from "./test-run.ts";

export function parseJunitXml(xml: string | undefined): ParsedRun {
  if (xml === undefined || !xml.includes("<testsuite")) return { passed: 0, failed: 0, skipped: 0, failures: [], unreadable: true };
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  const failures: TestFailure[] = [];
  for (const testcase of xmlElements(xml, "testcase")) {
    const attrs = xmlAttributes(testcase.attrs);
    const body = testcase.body ?? "";
    const problem = firstProblem(body);
    if (problem !== undefined) {
      failed++;
      const detail = xmlAttributes(problem.element.attrs).message ?? "";
      const failure: TestFailure = {
        test: [attrs.classname, attrs.name].filter(Boolean).join("::"),
        message: shortMessage(detail || decodeBody(problem.element) || problem.kind),
      };
      if (attrs.file !== undefined) failure.file = attrs.file;
      // pytest writes the 0-based line of the test function.
      if (attrs.line !== undefined && /^\d+$/.test(attrs.line)) failure.line = Number(attrs.line) + 1;
      failures.push(failure);
    } else if (body.includes("<skipped")) skipped++;
    else passed++;
  }
  return { passed, failed, skipped, failures };
}

function firstProblem(body: string): { kind: string; element: XmlElement } | undefined {
  const found = (["failure", "error"] as const).flatMap((kind) => {
    const at = body.indexOf(`<${kind}`);
    const element = at === -1 ? undefined : xmlElements(body.slice(at), kind).next().value;
    return element === undefined ? [] : [{ kind, element, at }];
  });
  found.sort((a, b) => a.at - b.at);
  return found[0];
}

/** A failure's own text: pytest writes the traceback there, entities encoded. */
function decodeBody(element: XmlElement): string {
  return element.body === undefined ? "" : decodeXml(element.body);
}
