// The Pike VM: runs a program (src/lib/regex/compile.ts) over a line with every alive thread advanced
// in lock step, one character at a time, each program counter at most once per step. Its cost is
// O(line length × program size), whatever the pattern and the input: "(a+)+$" on a long run of
// "a"s is as cheap as "a", where a backtracking engine (JavaScript's RegExp) takes exponential
// time. Thread order is priority order, so the match found is the leftmost-first one.
import { isWordChar } from "./char-class.ts";
import { ASSERTIONS, Op, type Program } from "./compile.ts";

type Caps = Int32Array | undefined;

class ThreadList {
  readonly pcs: Int32Array;
  readonly caps: Caps[];
  size = 0;
  private readonly seen: Uint32Array;
  private generation = 1;

  constructor(n: number) {
    this.pcs = new Int32Array(n);
    this.caps = new Array<Caps>(n);
    this.seen = new Uint32Array(n);
  }

  clear(): void {
    this.size = 0;
    this.generation++;
  }

  /** Adds `pc` unless it is already on the list this step; returns whether it was added. */
  add(pc: number, caps: Caps): boolean {
    if (this.seen[pc] === this.generation) return false;
    this.seen[pc] = this.generation;
    this.pcs[this.size] = pc;
    this.caps[this.size] = caps;
    this.size++;
    return true;
  }
}

export interface VmStats {
  /** Instructions visited: bounded by (line length + 1) × program size × 2. */
  steps: number;
}

export class PikeVm {
  private readonly stack: number[] = [];
  private readonly stackCaps: Caps[] = [];
  private current: ThreadList;
  private next: ThreadList;

  constructor(
    private readonly prog: Program,
    private readonly anchored: boolean,
    private readonly stats: VmStats = { steps: 0 },
  ) {
    this.current = new ThreadList(prog.op.length);
    this.next = new ThreadList(prog.op.length);
  }

  /** Whether the pattern matches anywhere in `input`. */
  test(input: string): boolean {
    return this.run(input, 0, false) !== undefined;
  }

  /** Capture slots (UTF-16 offsets, -1 for unset) of the leftmost-first match at or after `from`. */
  exec(input: string, from: number): Int32Array | undefined {
    return this.run(input, from, true);
  }

  private run(input: string, from: number, capture: boolean): Int32Array | undefined {
    const { op, a, classes } = this.prog;
    let matched: Int32Array | undefined;
    const fresh = () => (capture ? new Int32Array(this.prog.slots).fill(-1) : undefined);
    this.current.clear();
    for (let pos = from; ; ) {
      if (matched === undefined && (!this.anchored || pos === 0)) this.addThread(this.current, 0, pos, input, fresh());
      if (this.current.size === 0) break;
      const cp = pos < input.length ? (input.codePointAt(pos) as number) : -1;
      const width = cp > 0xffff ? 2 : 1;
      this.next.clear();
      for (let i = 0; i < this.current.size; i++) {
        const pc = this.current.pcs[i] as number;
        this.stats.steps++;
        const code = op[pc];
        if (code === Op.Class) {
          if (cp >= 0 && (classes[a[pc] as number] as { matches(cp: number): boolean }).matches(cp))
            this.addThread(this.next, pc + 1, pos + width, input, this.current.caps[i]);
        } else if (code === Op.Match) {
          if (!capture) return EMPTY;
          matched = this.current.caps[i];
          // Threads after this one have lower priority: the match stands against them.
          break;
        }
      }
      [this.current, this.next] = [this.next, this.current];
      // At the end of the line nothing more can be consumed; a Match there was seen above.
      if (cp < 0) break;
      pos += width;
    }
    return matched;
  }

  /** Follows jumps, splits, saves and assertions from `pc` at `pos`, in priority order. */
  private addThread(list: ThreadList, pc0: number, pos: number, input: string, caps0: Caps): void {
    const { op, a, b } = this.prog;
    const stack = this.stack;
    const stackCaps = this.stackCaps;
    stack.push(pc0);
    stackCaps.push(caps0);
    while (stack.length > 0) {
      const pc = stack.pop() as number;
      const caps = stackCaps.pop();
      if (!list.add(pc, caps)) continue;
      this.stats.steps++;
      switch (op[pc]) {
        case Op.Jump:
          stack.push(a[pc] as number);
          stackCaps.push(caps);
          break;
        case Op.Split:
          stack.push(b[pc] as number, a[pc] as number);
          stackCaps.push(caps, caps);
          break;
        case Op.Save: {
          let saved = caps;
          if (caps !== undefined) {
            saved = caps.slice();
            saved[a[pc] as number] = pos;
          }
          stack.push(pc + 1);
          stackCaps.push(saved);
          break;
        }
        case Op.Assert:
          if (holds(ASSERTIONS[a[pc] as number], input, pos)) {
            stack.push(pc + 1);
            stackCaps.push(caps);
          }
          break;
        default:
          break;
      }
    }
  }
}

const EMPTY = new Int32Array(0);

function holds(what: (typeof ASSERTIONS)[number] | undefined, input: string, pos: number): boolean {
  switch (what) {
    case "start":
      return pos === 0;
    case "end":
      return pos === input.length;
    default: {
      const before = pos > 0 && isWordChar(codePointBefore(input, pos));
      const after = pos < input.length && isWordChar(input.codePointAt(pos) as number);
      return (before !== after) === (what === "wordBoundary");
    }
  }
}

function codePointBefore(input: string, pos: number): number {
  const low = input.charCodeAt(pos - 1);
  if (pos >= 2 && low >= 0xdc00 && low <= 0xdfff) {
    const high = input.charCodeAt(pos - 2);
    if (high >= 0xd800 && high <= 0xdbff) return input.codePointAt(pos - 2) as number;
  }
  return low;
}
