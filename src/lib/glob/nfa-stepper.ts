// Plain NFA simulation over state sets: each step visits every state at most once, so one
// code point costs O(states + edges) whatever the pattern. No recursion, no backtracking.
// A state set holds only the states that matter after a step (consuming states and ACCEPT),
// in ascending order, so equal sets are equal arrays and lazy-dfa.ts can cache by them.
import { Alphabet } from "./alphabet.ts";
import { ACCEPT, type Nfa } from "./nfa.ts";

export type StateSet = Int32Array;

/** Below this share of all states, a set is sorted; above it, collected by one scan in order. */
const SCAN_SHARE = 8;

export class NfaStepper {
  readonly alphabet: Alphabet;
  /** Edges of state s are edges[edgeStart[s] .. edgeStart[s+1]); a consuming state has one. */
  private readonly edgeStart: Int32Array;
  private readonly edges: Int32Array;
  /** Alphabet classes state s consumes: [first, last] pairs in takes[takeStart[s] .. takeStart[s+1]). */
  private readonly takeStart: Int32Array;
  private readonly takes: Int32Array;
  /** 1 for the states a set keeps: consuming states and ACCEPT. */
  private readonly kept: Uint8Array;
  /** 1 for the states that keep a set accepting whatever follows (see findUniversal). */
  private readonly universal: Uint8Array;
  private readonly start: number;
  /** States seen in the current step carry its generation, so nothing is cleared per step. */
  private readonly seen: Uint32Array;
  private generation = 0;
  private readonly stack: Int32Array;
  /** The states the current step keeps, in the order found; `spare` is swapped with it by run(). */
  private found: Int32Array;
  private spare: Int32Array;
  private foundCount = 0;

  constructor(nfa: Nfa) {
    const count = nfa.next.length;
    this.alphabet = new Alphabet(nfa.consumes.filter((ranges) => ranges !== undefined));
    [this.edgeStart, this.edges] = flatten(nfa.next);
    [this.takeStart, this.takes] = flatten(nfa.consumes.map((ranges) => (ranges === undefined ? [] : this.alphabet.classRanges(ranges))));
    this.kept = new Uint8Array(count);
    for (let state = 0; state < count; state++) this.kept[state] = state === ACCEPT || nfa.consumes[state] !== undefined ? 1 : 0;
    this.start = nfa.start;
    this.seen = new Uint32Array(count);
    this.stack = new Int32Array(count);
    this.found = new Int32Array(count);
    this.spare = new Int32Array(count);
    this.universal = this.findUniversal();
  }

  startSet(): StateSet {
    this.begin();
    this.close(this.push(this.start, 0));
    return this.collect();
  }

  /** The states reached from `set` by one code point of alphabet class `cls`. */
  step(set: StateSet, cls: number): StateSet {
    this.advance(set, set.length, cls);
    return this.collect();
  }

  /** Whether `subject` from UTF-16 index `from` on takes `set` to ACCEPT, on two reused buffers: no state set is allocated. */
  run(set: StateSet, subject: string, at: { from: number }): boolean {
    this.spare.set(set);
    let size = set.length;
    for (let i = at.from; i < subject.length; ) {
      if (size === 0) return false;
      if (this.holdsUniversal(this.spare, size)) return true;
      const codePoint = subject.codePointAt(i) as number;
      i += codePoint > 0xffff ? 2 : 1;
      this.advance(this.spare, size, this.alphabet.classOf(codePoint));
      [this.spare, this.found] = [this.found, this.spare];
      size = this.foundCount;
    }
    return this.spare.subarray(0, size).includes(ACCEPT);
  }

  /** Whether every continuation, the empty one included, matches from `set`. */
  matchesEveryRest(set: StateSet): boolean {
    return this.holdsUniversal(set, set.length);
  }

  /** A set matches every continuation when it accepts now and holds a universal state. */
  private holdsUniversal(states: Int32Array, size: number): boolean {
    let accepts = false;
    let universal = false;
    for (let k = 0; k < size; k++) {
      const state = states[k] as number;
      if (state === ACCEPT) accepts = true;
      else if (this.universal[state] === 1) universal = true;
    }
    return accepts && universal;
  }

  /** Puts in `found` the states reached from the first `size` of `states` by class `cls`. */
  private advance(states: Int32Array, size: number, cls: number): void {
    this.begin();
    const { edges, edgeStart } = this;
    let top = 0;
    for (let k = 0; k < size; k++) {
      const state = states[k] as number;
      if (this.takesClass(state, cls)) top = this.push(edges[edgeStart[state] as number] as number, top);
    }
    this.close(top);
  }

  private takesClass(state: number, cls: number): boolean {
    const { takes } = this;
    for (let k = this.takeStart[state] as number, end = this.takeStart[state + 1] as number; k < end; k += 2) {
      if (cls >= (takes[k] as number) && cls <= (takes[k + 1] as number)) return true;
    }
    return false;
  }

  /**
   * The states that keep a set accepting whatever follows: each consumes every code point and
   * goes to a split that leads straight back to it and, without consuming, to ACCEPT (the loop
   * of a trailing "**"). A set holding one and ACCEPT keeps both after any code point.
   */
  private findUniversal(): Uint8Array {
    const count = this.kept.length;
    const toAccept = this.reachesAcceptFreely();
    const universal = new Uint8Array(count);
    for (let state = 0; state < count; state++) {
      const first = this.takeStart[state] as number;
      const takesEverything =
        this.takeStart[state + 1] === first + 2 && this.takes[first] === 0 && this.takes[first + 1] === this.alphabet.size - 1;
      if (!takesEverything) continue;
      const loop = this.edges[this.edgeStart[state] as number] as number;
      const back = this.edges.subarray(this.edgeStart[loop] as number, this.edgeStart[loop + 1] as number).includes(state);
      if (back && this.kept[loop] === 0 && toAccept[loop] === 1) universal[state] = 1;
    }
    return universal;
  }

  /** 1 for the states that reach ACCEPT without consuming: one backward walk over split edges. */
  private reachesAcceptFreely(): Uint8Array {
    const count = this.kept.length;
    const from: number[][] = Array.from({ length: count }, () => []);
    for (let state = 0; state < count; state++) {
      if (this.kept[state] === 1) continue;
      for (let e = this.edgeStart[state] as number; e < (this.edgeStart[state + 1] as number); e++)
        from[this.edges[e] as number]?.push(state);
    }
    const reached = new Uint8Array(count);
    reached[ACCEPT] = 1;
    const pending = [ACCEPT];
    for (let state = pending.pop(); state !== undefined; state = pending.pop()) {
      for (const source of from[state] ?? []) {
        if (reached[source] === 1) continue;
        reached[source] = 1;
        pending.push(source);
      }
    }
    return reached;
  }

  private begin(): void {
    this.foundCount = 0;
    if (++this.generation === 0xffffffff) {
      this.seen.fill(0);
      this.generation = 1;
    }
  }

  /** Puts `state` on the stack unless this step has seen it; returns the new stack top. */
  private push(state: number, top: number): number {
    if (this.seen[state] === this.generation) return top;
    this.seen[state] = this.generation;
    this.stack[top] = state;
    return top + 1;
  }

  /** Adds to `found` the stacked states and all they reach without consuming, each once. */
  private close(stacked: number): void {
    const { seen, stack, generation, edges, edgeStart, kept, found } = this;
    let top = stacked;
    let count = this.foundCount;
    while (top > 0) {
      const state = stack[--top] as number;
      if (kept[state] === 1) {
        found[count++] = state;
        continue;
      }
      for (let e = edgeStart[state] as number, end = edgeStart[state + 1] as number; e < end; e++) {
        const target = edges[e] as number;
        if (seen[target] === generation) continue;
        seen[target] = generation;
        stack[top++] = target;
      }
    }
    this.foundCount = count;
  }

  private collect(): StateSet {
    const { foundCount, seen, kept, generation } = this;
    if (foundCount * SCAN_SHARE < seen.length) return this.found.slice(0, foundCount).sort();
    const set = new Int32Array(foundCount);
    for (let state = 0, k = 0; k < foundCount; state++) {
      if (seen[state] === generation && kept[state] === 1) set[k++] = state;
    }
    return set;
  }
}

/** Lists of numbers as one array, list k at values[start[k] .. start[k+1]). */
function flatten(lists: readonly (readonly number[])[]): [start: Int32Array, values: Int32Array] {
  const start = new Int32Array(lists.length + 1);
  for (let k = 0; k < lists.length; k++) start[k + 1] = (start[k] as number) + (lists[k] as readonly number[]).length;
  const values = new Int32Array(start[lists.length] as number);
  for (let k = 0; k < lists.length; k++) values.set(lists[k] as readonly number[], start[k]);
  return [start, values];
}
