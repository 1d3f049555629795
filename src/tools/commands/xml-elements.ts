// The few XML shapes the bridge reads from runners' reports (JUnit <testcase>, Cobertura <class>
// and <line>), found with indexOf rather than regular expressions: a report is a file in the
// workspace, which anything can write, and a pattern like `<a\b[^>]*>([\s\S]*?)<\/a>` takes
// quadratic time on an element that never closes. Everything here is linear in the text.

export interface XmlElement {
  /** The raw attribute text between the tag name and ">". */
  attrs: string;
  /** The text between the start and end tags; undefined for <x/> or an element never closed. */
  body: string | undefined;
}

/** Every `<tag ...>` in `xml`, in order (not nested in one another: the shapes read here are flat). */
export function* xmlElements(xml: string, tag: string): Generator<XmlElement> {
  const open = `<${tag}`;
  const close = `</${tag}>`;
  // Once no end tag is left after some point, none is left after any later one: searched for once.
  let noCloseAfter = Number.POSITIVE_INFINITY;
  let at = 0;
  for (;;) {
    const start = xml.indexOf(open, at);
    if (start === -1) return;
    const next = xml[start + open.length] ?? "";
    if (!/[\s/>]/.test(next)) {
      at = start + open.length;
      continue;
    }
    const gt = xml.indexOf(">", start);
    if (gt === -1) return;
    const selfClosing = xml[gt - 1] === "/";
    const attrs = xml.slice(start + open.length, selfClosing ? gt - 1 : gt);
    const end = selfClosing || gt >= noCloseAfter ? -1 : xml.indexOf(close, gt);
    if (!selfClosing && end === -1) noCloseAfter = Math.min(noCloseAfter, gt);
    yield { attrs, body: end === -1 ? undefined : xml.slice(gt + 1, end) };
    at = end === -1 ? gt + 1 : end + close.length;
  }
}

/** name="value" pairs, values decoded. The lookbehind starts a match only where a name starts. */
export function xmlAttributes(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of text.matchAll(/(?<![\w:.-])([\w:.-]+)="([^"]*)"/g)) out[m[1] ?? ""] = decodeXml(m[2] ?? "");
  return out;
}

export function decodeXml(text: string): string {
  return text
    .replace(/&#(\d{1,7});/g, (_, n: string) => codePoint(Number(n)))
    .replace(/&#x([0-9a-f]{1,6});/gi, (_, n: string) => codePoint(Number.parseInt(n, 16)))
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, "&");
}

/** String.fromCodePoint throws past U+10FFFF: a bad reference must not fail the whole report. */
function codePoint(n: number): string {
  return n <= 0x10ffff ? String.fromCodePoint(n) : "\uFFFD";
}
