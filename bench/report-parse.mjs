// Reading a big coverage report: JSON.parse in one go vs the bridge's parseJsonCooperatively
// (src/lib/text/cooperative-json.ts), on the same generated istanbul report, alternated in one run.
// For each: the median time, and the longest turn the event loop waited (a 1 ms timer's longest
// gap), which is what every other session, /ping and the signal handlers feel.
// Usage: npm run build && node bench/report-parse.mjs [megabytes, default 30] [runs, default 5]
import { parseJsonCooperatively } from "../dist/src/lib/text/cooperative-json.js";
import { median } from "./timing.mjs";

const targetMb = Number(process.argv[2] ?? 30);
const runs = Number(process.argv[3] ?? 5);

function report() {
  const files = {};
  for (let f = 0; f < targetMb * 11; f++) {
    const statementMap = {};
    const s = {};
    for (let i = 0; i < 500; i++) {
      statementMap[i] = { start: { line: i + 1, column: 0 }, end: { line: i + 1, column: 30 } };
      s[i] = i % 3;
    }
    files[`/ws/src/file${f}.ts`] = { path: `/ws/src/file${f}.ts`, statementMap, fnMap: {}, branchMap: {}, s, f: {}, b: {} };
  }
  return JSON.stringify(files, null, 2);
}

/** Time of `parse(text)` and the longest gap between 1 ms timer ticks meanwhile. */
async function measure(parse, text) {
  let last = performance.now();
  let longest = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 1);
  const t0 = performance.now();
  await parse(text);
  const ms = performance.now() - t0;
  clearInterval(timer);
  return { ms, longest: Math.max(longest, performance.now() - last) };
}

const text = report();
console.log(`istanbul report: ${(text.length / 1e6).toFixed(1)} MB, ${runs} runs each, alternated`);
const one = [];
const turns = [];
for (let r = 0; r < runs + 1; r++) {
  const a = await measure((t) => JSON.parse(t), text);
  const b = await measure((t) => parseJsonCooperatively(t), text);
  // The first pair warms both up.
  if (r > 0) {
    one.push(a);
    turns.push(b);
  }
}
const row = (name, xs) =>
  `${name.padEnd(24)} ${median(xs.map((x) => x.ms))
    .toFixed(0)
    .padStart(6)} ms   longest turn ${median(xs.map((x) => x.longest))
    .toFixed(0)
    .padStart(5)} ms`;
console.log(row("JSON.parse", one));
console.log(row("parseJsonCooperatively", turns));
const ratio = median(turns.map((x) => x.ms)) / median(one.map((x) => x.ms));
const turnRatio = median(turns.map((x) => x.longest)) / median(one.map((x) => x.longest));
console.log(`time: ${ratio.toFixed(2)}x JSON.parse; longest turn: ${turnRatio.toFixed(3)}x JSON.parse's`);
