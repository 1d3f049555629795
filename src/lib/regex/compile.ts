// AST to a program for the Pike VM (src/lib/regex/pike-vm.ts), in the style of Thompson and Pike: one
// instruction per consumed character, SPLIT for choices (the first target preferred, which gives
// leftmost-first matches as ripgrep's engine), SAVE for capture positions. Counted repetitions are
// expanded, so the program's size is computed first and a pattern past MAX_INSTRUCTIONS is refused:
// the matcher's cost per character is linear in that size, whatever the input.
import type { Assertion, RegexNode } from "./ast.ts";
import type { CharClass } from "./char-class.ts";

export const MAX_INSTRUCTIONS = 20_000;

export enum Op {
  Class = 0,
  Split = 1,
  Jump = 2,
  Save = 3,
  Assert = 4,
  Match = 5,
}

export const ASSERTIONS: readonly Assertion[] = ["start", "end", "wordBoundary", "notWordBoundary"];

export interface Program {
  readonly op: Uint8Array;
  /** Class index, first SPLIT/JUMP target, SAVE slot or assertion index. */
  readonly a: Int32Array;
  /** Second SPLIT target. */
  readonly b: Int32Array;
  readonly classes: readonly CharClass[];
  /** Capture slots: 2 per group, the whole match's included. */
  readonly slots: number;
}

/** The program's size, or Infinity past the limit (computed before anything is built). */
export function programSize(node: RegexNode): number {
  const size = sizeOf(node);
  return size > MAX_INSTRUCTIONS ? Infinity : size + 3;
}

function sizeOf(node: RegexNode): number {
  switch (node.kind) {
    case "empty":
      return 0;
    case "class":
    case "assert":
      return 1;
    case "concat":
      return node.items.reduce((n, item) => n + sizeOf(item), 0);
    case "alternation":
      return node.branches.reduce((n, b) => n + sizeOf(b), 0) + 2 * (node.branches.length - 1);
    case "group":
      return sizeOf(node.body) + (node.index === undefined ? 0 : 2);
    case "repeat": {
      const body = sizeOf(node.body);
      if (body > MAX_INSTRUCTIONS) return Infinity;
      const optional = node.max === Infinity ? (node.min === 0 ? body + 2 : 1) : (node.max - node.min) * (body + 1);
      return node.min * body + optional;
    }
  }
}

export function compile(root: RegexNode, groups: number): Program {
  const op: number[] = [];
  const a: number[] = [];
  const b: number[] = [];
  const classes: CharClass[] = [];
  const emit = (code: Op, x = 0, y = 0) => {
    op.push(code);
    a.push(x);
    b.push(y);
    return op.length - 1;
  };
  const gen = (node: RegexNode): void => {
    switch (node.kind) {
      case "empty":
        return;
      case "class":
        classes.push(node.cls);
        emit(Op.Class, classes.length - 1);
        return;
      case "assert":
        emit(Op.Assert, ASSERTIONS.indexOf(node.what));
        return;
      case "concat":
        for (const item of node.items) gen(item);
        return;
      case "group":
        if (node.index !== undefined) emit(Op.Save, 2 * node.index);
        gen(node.body);
        if (node.index !== undefined) emit(Op.Save, 2 * node.index + 1);
        return;
      case "alternation": {
        const jumps: number[] = [];
        node.branches.forEach((branch, i) => {
          const last = i === node.branches.length - 1;
          const split = last ? -1 : emit(Op.Split);
          if (split >= 0) a[split] = op.length;
          gen(branch);
          if (!last) {
            jumps.push(emit(Op.Jump));
            b[split] = op.length;
          }
        });
        for (const j of jumps) a[j] = op.length;
        return;
      }
      case "repeat":
        repeat(node.body, node.min, node.max, node.greedy);
        return;
    }
  };
  /** A SPLIT whose preferred target is the body (greedy) or what follows (lazy). */
  const choice = (split: number, body: number, after: number, greedy: boolean) => {
    a[split] = greedy ? body : after;
    b[split] = greedy ? after : body;
  };
  const repeat = (body: RegexNode, min: number, max: number, greedy: boolean) => {
    for (let i = 0; i < (max === Infinity && min > 0 ? min - 1 : min); i++) gen(body);
    if (max === Infinity) {
      if (min > 0) {
        const start = op.length;
        gen(body);
        const split = emit(Op.Split);
        choice(split, start, op.length, greedy);
      } else {
        const split = emit(Op.Split);
        gen(body);
        emit(Op.Jump, split);
        choice(split, split + 1, op.length, greedy);
      }
      return;
    }
    const splits: number[] = [];
    for (let i = min; i < max; i++) {
      splits.push(emit(Op.Split));
      gen(body);
    }
    for (const split of splits) choice(split, split + 1, op.length, greedy);
  };
  // The whole match is group 0.
  emit(Op.Save, 0);
  gen(root);
  emit(Op.Save, 1);
  emit(Op.Match);
  return { op: Uint8Array.from(op), a: Int32Array.from(a), b: Int32Array.from(b), classes, slots: 2 * (groups + 1) };
}
