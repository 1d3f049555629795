// A strict parser of the Prometheus text exposition format (0.0.4), for tests: every line is a
// comment, a HELP/TYPE line or a sample; names and labels must be valid; label values unescaped;
// a family's TYPE comes before its samples; no series twice; histograms cumulative with +Inf equal
// to _count. Throws on the first violation, naming the line.
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Family {
  name: string;
  type: "counter" | "gauge" | "histogram" | "summary" | "untyped";
  help?: string;
  samples: Sample[];
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

export function parsePrometheusText(text: string): Map<string, Family> {
  if (!text.endsWith("\n")) throw new Error("the exposition must end with a newline");
  const families = new Map<string, Family>();
  const seen = new Set<string>();
  text
    .slice(0, -1)
    .split("\n")
    .forEach((line, i) => {
      const where = `line ${i + 1} (${line})`;
      if (line.startsWith("#")) {
        const m = /^# (HELP|TYPE) (\S+) (.*)$/.exec(line);
        if (m === null) return;
        const [, kind, name = "", rest = ""] = m;
        if (!NAME.test(name)) throw new Error(`${where}: bad metric name`);
        const family = families.get(name) ?? { name, type: "untyped", samples: [] };
        if (kind === "TYPE") {
          if (!["counter", "gauge", "histogram", "summary", "untyped"].includes(rest)) throw new Error(`${where}: bad type`);
          if (family.samples.length > 0) throw new Error(`${where}: TYPE after samples`);
          family.type = rest as Family["type"];
        } else family.help = rest;
        families.set(name, family);
        return;
      }
      if (line.trim() === "") throw new Error(`${where}: empty line`);
      const sample = parseSample(line, where);
      const key = `${sample.name}${JSON.stringify(Object.entries(sample.labels).sort())}`;
      if (seen.has(key)) throw new Error(`${where}: series twice`);
      seen.add(key);
      const base = familyOf(sample.name, families);
      if (base === undefined) throw new Error(`${where}: sample without a TYPE`);
      base.samples.push(sample);
    });
  for (const family of families.values()) if (family.type === "histogram") checkHistogram(family);
  return families;
}

function familyOf(name: string, families: Map<string, Family>): Family | undefined {
  const direct = families.get(name);
  if (direct !== undefined) return direct;
  const m = /^(.*)_(bucket|sum|count)$/.exec(name);
  const base = m?.[1] === undefined ? undefined : families.get(m[1]);
  return base?.type === "histogram" || base?.type === "summary" ? base : undefined;
}

function parseSample(line: string, where: string): Sample {
  const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{.*\})? (\S+)( -?\d+)?$/.exec(line);
  if (m === null) throw new Error(`${where}: not a sample`);
  const [, name = "", labelText, valueText = ""] = m;
  const value = valueText === "+Inf" ? Infinity : valueText === "-Inf" ? -Infinity : valueText === "NaN" ? NaN : Number(valueText);
  if (Number.isNaN(value) && valueText !== "NaN") throw new Error(`${where}: bad value`);
  return { name, labels: labelText === undefined ? {} : parseLabels(labelText.slice(1, -1), where), value };
}

function parseLabels(text: string, where: string): Record<string, string> {
  const labels: Record<string, string> = {};
  let i = 0;
  while (i < text.length) {
    const eq = text.indexOf("=", i);
    const name = text.slice(i, eq);
    if (eq < 0 || !LABEL.test(name)) throw new Error(`${where}: bad label name`);
    if (name in labels) throw new Error(`${where}: label twice`);
    if (text[eq + 1] !== '"') throw new Error(`${where}: label value not quoted`);
    let value = "";
    let j = eq + 2;
    for (; j < text.length && text[j] !== '"'; j++) {
      if (text[j] === "\\") {
        const next = text[++j];
        if (next === "n") value += "\n";
        else if (next === "\\" || next === '"') value += next;
        else throw new Error(`${where}: bad escape`);
      } else if (text[j] === "\n") throw new Error(`${where}: raw newline in a label`);
      else value += text[j];
    }
    if (text[j] !== '"') throw new Error(`${where}: unterminated label value`);
    labels[name] = value;
    i = j + 1;
    if (text[i] === ",") i += 1;
    else if (i < text.length) throw new Error(`${where}: expected , between labels`);
  }
  return labels;
}

function checkHistogram(family: Family): void {
  const series = new Map<string, Sample[]>();
  for (const s of family.samples) {
    const { le: _le, ...rest } = s.labels;
    const key = JSON.stringify(Object.entries(rest).sort());
    series.set(key, [...(series.get(key) ?? []), s]);
  }
  for (const [key, samples] of series) {
    const buckets = samples
      .filter((s) => s.name === `${family.name}_bucket`)
      .map((s) => ({ le: Number(s.labels.le === "+Inf" ? Infinity : s.labels.le), value: s.value }));
    const count = samples.find((s) => s.name === `${family.name}_count`)?.value;
    const sum = samples.find((s) => s.name === `${family.name}_sum`);
    if (buckets.length === 0 || count === undefined || sum === undefined)
      throw new Error(`${family.name}${key}: histogram without buckets, _sum or _count`);
    buckets.sort((a, b) => a.le - b.le);
    for (let k = 1; k < buckets.length; k++)
      if ((buckets[k]?.value ?? 0) < (buckets[k - 1]?.value ?? 0)) throw new Error(`${family.name}${key}: buckets not cumulative`);
    if (buckets.at(-1)?.le !== Infinity || buckets.at(-1)?.value !== count)
      throw new Error(`${family.name}${key}: +Inf bucket differs from _count`);
  }
}
