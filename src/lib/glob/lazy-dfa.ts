// A DFA built lazily from the NFA: each DFA state is a set of NFA states, and each transition is
// computed once per (state, alphabet class) and then read from a table, so a path costs one
// table read per code point once the states it visits exist. The cache has a budget; when it is
// spent, the rest of a path runs on the plain NFA, which is slower but still linear, and memory
// stays bounded. There is never any backtracking.
import { ACCEPT } from "./nfa.ts";
import type { NfaStepper, StateSet } from "./nfa-stepper.ts";

/** Int32 cells the cache may hold (state sets plus transition rows): 2 MiB. */
const DEFAULT_BUDGET = 1 << 19;

// A table entry is the row offset of the next state, with its two low bits free (rows are a
// multiple of 4 wide) to say that matching can stop there. Neither stopping state has a row.
const UNKNOWN = -1;
const DEAD = 1;
const SURE = 2;
const STOP_BITS = DEAD | SURE;

export class LazyDfa {
  /** The row width: the alphabet size rounded up to a multiple of 4. */
  private readonly width: number;
  /** Row of state n at n * width: the entry for each alphabet class, UNKNOWN until computed. */
  private table = new Int32Array(0);
  private readonly sets: StateSet[] = [];
  private readonly accepting: boolean[] = [];
  /** State ids by a hash of their set. */
  private readonly byHash = new Map<number, number[]>();
  private readonly startSet: StateSet;
  private readonly startEntry: number;
  private budget: number;
  /** The most cells the table can need: the whole budget. */
  private readonly maxTableCells: number;

  constructor(
    private readonly stepper: NfaStepper,
    opts: { budget?: number } = {},
  ) {
    this.width = (stepper.alphabet.size + 3) & ~3;
    this.budget = opts.budget ?? DEFAULT_BUDGET;
    this.maxTableCells = this.budget;
    this.startSet = stepper.startSet();
    this.startEntry = this.entryOf(this.startSet);
  }

  /** How many states are cached (for tests). */
  get size(): number {
    return this.sets.length;
  }

  /** Whether `subject`, from UTF-16 index `from` on, matches. */
  matches(subject: string, from = 0): boolean {
    let entry = this.startEntry;
    if (entry === UNKNOWN) return this.stepper.run(this.startSet, subject, { from });
    const { alphabet } = this.stepper;
    let table = this.table;
    for (let i = from; ; ) {
      if ((entry & STOP_BITS) !== 0) return entry === SURE;
      if (i >= subject.length) return this.accepting[entry / this.width] === true;
      const codePoint = subject.codePointAt(i) as number;
      i += codePoint > 0xffff ? 2 : 1;
      const cls = alphabet.classOf(codePoint);
      let next = table[entry + cls] as number;
      if (next === UNKNOWN) {
        const set = this.stepper.step(this.sets[entry / this.width] as StateSet, cls);
        next = this.entryOf(set);
        if (next === UNKNOWN) return this.stepper.run(set, subject, { from: i });
        table = this.table;
        table[entry + cls] = next;
      }
      entry = next;
    }
  }

  /** The entry for the state of `set`, cached now if the budget allows; UNKNOWN when it does not. */
  private entryOf(set: StateSet): number {
    if (set.length === 0) return DEAD;
    if (this.stepper.matchesEveryRest(set)) return SURE;
    const hash = hashOf(set);
    const sameHash = this.byHash.get(hash);
    for (const id of sameHash ?? []) {
      if (sameStates(this.sets[id] as StateSet, set)) return id * this.width;
    }
    const cost = this.width + set.length;
    if (cost > this.budget) return UNKNOWN;
    this.budget -= cost;
    const id = this.sets.length;
    this.sets.push(set);
    this.accepting.push(set[0] === ACCEPT);
    if (sameHash === undefined) this.byHash.set(hash, [id]);
    else sameHash.push(id);
    this.growTable((id + 1) * this.width);
    return id * this.width;
  }

  private growTable(cells: number): void {
    if (cells <= this.table.length) return;
    // Doubling keeps growth amortised O(1) per state; the cap keeps it within the budget.
    const grown = new Int32Array(Math.max(cells, Math.min(this.table.length * 2, this.maxTableCells))).fill(UNKNOWN);
    grown.set(this.table);
    this.table = grown;
  }
}

/** FNV-1a over the state ids. */
function hashOf(set: StateSet): number {
  let hash = 0x811c9dc5;
  for (let k = 0; k < set.length; k++) hash = Math.imul(hash ^ (set[k] as number), 0x01000193);
  return hash;
}

function sameStates(a: StateSet, b: StateSet): boolean {
  if (a.length !== b.length) return false;
  for (let k = 0; k < a.length; k++) if (a[k] !== b[k]) return false;
  return true;
}
