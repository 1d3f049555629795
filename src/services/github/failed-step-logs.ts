// Reshapes `gh run view --log-failed` ("job<TAB>step<TAB>timestamp line" per line) for a model: one
// heading per failed step, then its lines without the repeated job and step names, timestamps or
// colour codes. A long step keeps its end, where the error is.

const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z ?/;
// CSI sequences (colours, cursor moves) that CI output is full of.
const ANSI = /\x1b\[[0-9;?]*[A-Za-z]/g;

export function failedStepLogs(raw: string, maxLinesPerStep: number): string {
  const steps = new Map<string, string[]>();
  for (const line of raw.split("\n")) {
    const [job, step, ...rest] = line.split("\t");
    if (job === undefined || step === undefined || rest.length === 0) continue;
    const heading = `== ${job} / ${step}`;
    const lines = steps.get(heading) ?? [];
    lines.push(rest.join("\t").replace(TIMESTAMP, "").replace(ANSI, "").trimEnd());
    steps.set(heading, lines);
  }
  const out: string[] = [];
  for (const [heading, lines] of steps) {
    out.push(heading);
    if (lines.length > maxLinesPerStep) out.push(`[${lines.length - maxLinesPerStep} earlier lines left out]`);
    out.push(...lines.slice(-maxLinesPerStep), "");
  }
  return out.join("\n");
}
