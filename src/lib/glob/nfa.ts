// AST to a Thompson NFA: one state per consumed code point, one split state per "*" loop and per
// brace group, nothing per brace copy. It is built back to front (each node is compiled knowing
// the state that follows it), so no patch lists are needed. Its size is linear in the pattern,
// and buildNfa() stops at a size bound instead of growing past it.
import type { GlobNode } from "./ast.ts";
import type { CodePointRange } from "./ranges.ts";

/** The accepting state. Being 0, it comes first in every sorted state set (lazy-dfa.ts relies on it). */
export const ACCEPT = 0;

export interface Nfa {
  /**
   * Per state: the code points it consumes before going to `next[state][0]`, or undefined for a
   * split (which goes to every state in `next[state]` without consuming) and for ACCEPT.
   */
  readonly consumes: readonly (readonly CodePointRange[] | undefined)[];
  readonly next: readonly (readonly number[])[];
  readonly start: number;
}

/**
 * The most an NFA may hold. One simulation step costs O(states + ranges), ranges counted over
 * all consuming states (a class like "[!a-z_]" is several), so together they bound that cost.
 */
export interface NfaBounds {
  readonly maxStates: number;
  readonly maxRanges: number;
}

/** The NFA of `nodes`, or undefined when it would exceed `bounds`. */
export function buildNfa(nodes: readonly GlobNode[], bounds: NfaBounds): Nfa | undefined {
  const builder = new NfaBuilder(bounds);
  try {
    const start = builder.sequence(nodes, ACCEPT);
    return { consumes: builder.consumes, next: builder.next, start };
  } catch (err) {
    if (err instanceof BoundExceeded) return undefined;
    throw err;
  }
}

class BoundExceeded extends Error {}

class NfaBuilder {
  readonly consumes: (readonly CodePointRange[] | undefined)[] = [undefined];
  readonly next: number[][] = [[]];
  private ranges = 0;

  constructor(private readonly bounds: NfaBounds) {}

  sequence(nodes: readonly GlobNode[], next: number): number {
    let start = next;
    for (let k = nodes.length - 1; k >= 0; k--) start = this.node(nodes[k] as GlobNode, start);
    return start;
  }

  private node(node: GlobNode, next: number): number {
    switch (node.kind) {
      case "step":
        return this.add(node.ranges, [next]);
      case "repeat": {
        // The body always consumes, so this loop has no empty cycle.
        const loop = this.add(undefined, []);
        (this.next[loop] as number[]).push(this.sequence(node.body, loop), next);
        return loop;
      }
      case "alternation": {
        // Recursion depth is bounded by the parser's MAX_BRACE_DEPTH.
        const starts = [...new Set(node.branches.map((branch) => this.sequence(branch, next)))];
        return starts.length === 1 ? (starts[0] as number) : this.add(undefined, starts);
      }
    }
  }

  private add(consumes: readonly CodePointRange[] | undefined, next: number[]): number {
    this.ranges += consumes?.length ?? 0;
    if (this.next.length >= this.bounds.maxStates || this.ranges > this.bounds.maxRanges) throw new BoundExceeded();
    this.consumes.push(consumes);
    this.next.push(next);
    return this.next.length - 1;
  }
}
