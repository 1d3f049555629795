// The glob matcher findFiles uses: parse (parse.ts), compile to an NFA (nfa.ts), and match through
// a lazily built DFA (lazy-dfa.ts). Matching is linear in the path length times a bound on the
// pattern's size, on every runtime: no RegExp, so no pattern can make matching backtrack.
import { globError, quoteGlob } from "./glob-error.ts";
import { LazyDfa } from "./lazy-dfa.ts";
import { buildNfa, type NfaBounds } from "./nfa.ts";
import { NfaStepper } from "./nfa-stepper.ts";
import { parseGlob } from "./parse.ts";

/**
 * The largest automaton built. It bounds the cost of one code point when the DFA cache is cold
 * or full, to a few milliseconds for a whole realistic path. Any 1000-character pattern
 * (findFiles' limit) fits: no syntax costs more than 1.5 states or 2 ranges per character.
 */
export const NFA_BOUNDS: NfaBounds = { maxStates: 2000, maxRanges: 4000 };

export interface GlobMatcher {
  /** Whether the pattern is matched against the basename rather than the relative path. */
  readonly basenameOnly: boolean;
  matches(relativePath: string): boolean;
}

export function compileGlob(pattern: string): GlobMatcher {
  const { nodes, basenameOnly } = parseGlob(pattern);
  const nfa = buildNfa(nodes, NFA_BOUNDS);
  if (nfa === undefined) {
    throw globError(
      `The ${quoteGlob(pattern)} is too complex: matching it would need more than ${NFA_BOUNDS.maxStates} states or ${NFA_BOUNDS.maxRanges} character ranges`,
      'Split it into simpler patterns and search for each, or use fewer "*", "?", "[...]" and "{...}" parts.',
    );
  }
  const dfa = new LazyDfa(new NfaStepper(nfa));
  return {
    basenameOnly,
    matches(relativePath: string): boolean {
      return dfa.matches(relativePath, basenameOnly ? relativePath.lastIndexOf("/") + 1 : 0);
    },
  };
}
