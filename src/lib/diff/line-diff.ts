// Line diff by Myers' O(ND) algorithm ("An O(ND) Difference Algorithm and Its Variations", 1986),
// after trimming the common head and tail (an edit is usually local, so what is left is small).
// It is bounded in time and memory: the search stops at MAX_DISTANCE edits or MAX_WORK snake steps,
// and the middle that is left is then reported as removed and re-added whole: still a correct diff,
// only a coarser one. Memory is the trace of the search, at most about MAX_DISTANCE² cells.

/** A run of lines: kept, or only in the old text, or only in the new. */
export interface DiffOp {
  kind: "equal" | "delete" | "insert";
  /** 0-based index of the run's first line in the old text (for inserts: where they go). */
  oldStart: number;
  /** 0-based index in the new text. */
  newStart: number;
  count: number;
}

/** 1,000 edits: a trace of ~1M cells (4 MB), far beyond any diff a model reads line by line. */
const MAX_DISTANCE = 1000;
/** Snake steps before giving up on a minimal diff: tens of milliseconds. */
const MAX_WORK = 20_000_000;

export function diffLines(oldLines: readonly string[], newLines: readonly string[]): DiffOp[] {
  let head = 0;
  while (head < oldLines.length && head < newLines.length && oldLines[head] === newLines[head]) head++;
  let tail = 0;
  while (
    tail < oldLines.length - head &&
    tail < newLines.length - head &&
    oldLines[oldLines.length - 1 - tail] === newLines[newLines.length - 1 - tail]
  )
    tail++;
  const ops: DiffOp[] = [];
  const push = (kind: DiffOp["kind"], oldStart: number, newStart: number, count: number) => {
    if (count === 0) return;
    const last = ops[ops.length - 1];
    if (
      last !== undefined &&
      last.kind === kind &&
      last.oldStart + (kind === "insert" ? 0 : last.count) === oldStart &&
      last.newStart + (kind === "delete" ? 0 : last.count) === newStart
    )
      last.count += count;
    else ops.push({ kind, oldStart, newStart, count });
  };
  push("equal", 0, 0, head);
  const a = internMiddle(oldLines, newLines, head, tail);
  const middle = myers(a.old, a.new) ?? coarse(a.old.length, a.new.length);
  for (const op of middle) push(op.kind, op.oldStart + head, op.newStart + head, op.count);
  push("equal", oldLines.length - tail, newLines.length - tail, tail);
  return ops;
}

/** The lines between head and tail as small integers, so comparisons are cheap. */
function internMiddle(
  oldLines: readonly string[],
  newLines: readonly string[],
  head: number,
  tail: number,
): { old: Int32Array; new: Int32Array } {
  const ids = new Map<string, number>();
  const intern = (lines: readonly string[]) => {
    const out = new Int32Array(Math.max(0, lines.length - head - tail));
    for (let i = 0; i < out.length; i++) {
      const line = lines[head + i] as string;
      let id = ids.get(line);
      if (id === undefined) {
        id = ids.size;
        ids.set(line, id);
      }
      out[i] = id;
    }
    return out;
  };
  return { old: intern(oldLines), new: intern(newLines) };
}

function coarse(n: number, m: number): DiffOp[] {
  return [
    { kind: "delete", oldStart: 0, newStart: 0, count: n },
    { kind: "insert", oldStart: n, newStart: 0, count: m },
  ];
}

/** The minimal edit script, or undefined when it is beyond the bounds. */
function myers(a: Int32Array, b: Int32Array): DiffOp[] | undefined {
  const n = a.length;
  const m = b.length;
  if (n === 0 || m === 0) return coarse(n, m);
  const maxD = Math.min(n + m, MAX_DISTANCE);
  const offset = maxD + 1;
  let v = new Int32Array(2 * maxD + 3);
  const trace: Int32Array[] = [];
  let work = 0;
  for (let d = 0; d <= maxD; d++) {
    trace.push(v.slice(offset - d - 1, offset + d + 2));
    const next = v;
    for (let k = -d; k <= d; k += 2) {
      const down = k === -d || (k !== d && (next[offset + k - 1] as number) < (next[offset + k + 1] as number));
      let x = down ? (next[offset + k + 1] as number) : (next[offset + k - 1] as number) + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
        work++;
      }
      next[offset + k] = x;
      if (x >= n && y >= m) return backtrack(trace, d, n, m);
    }
    work += d;
    if (work > MAX_WORK) return undefined;
    v = next;
  }
  return undefined;
}

/** Walks the trace back from (n, m), one edit per step, and returns the runs in order. */
function backtrack(trace: readonly Int32Array[], last: number, n: number, m: number): DiffOp[] {
  const ops: DiffOp[] = [];
  let x = n;
  let y = m;
  for (let d = last; d > 0; d--) {
    // trace[d] is V before step d, stored from k = -d-1; read V[k] as at(k).
    const before = trace[d] as Int32Array;
    const at = (k: number) => before[k + d + 1] as number;
    const k = x - y;
    const down = k === -d || (k !== d && at(k - 1) < at(k + 1));
    const prevK = down ? k + 1 : k - 1;
    const prevX = at(prevK);
    const prevY = prevX - prevK;
    const startX = down ? prevX : prevX + 1;
    const startY = startX - k;
    if (x > startX) ops.push({ kind: "equal", oldStart: startX, newStart: startY, count: x - startX });
    ops.push(
      down
        ? { kind: "insert", oldStart: prevX, newStart: prevY, count: 1 }
        : { kind: "delete", oldStart: prevX, newStart: prevY, count: 1 },
    );
    x = prevX;
    y = prevY;
  }
  if (x > 0) ops.push({ kind: "equal", oldStart: 0, newStart: 0, count: x });
  return ops.reverse();
}
