// JSON.parse for reports of tens of megabytes (coverage-final.json, a test runner's report) that
// gives the event loop a turn every few milliseconds. JSON.parse of 64 MB holds the loop for a
// second or more, and every session, /ping and the signal handlers wait behind it.
//
// One pass over the text keeps a stack of the open objects and arrays. A container whose text
// grows past CHUNK_CHARS is "built": from then on its finished members are handed to JSON.parse in
// runs of about CHUNK_CHARS, wrapped in the container's brackets, and its built children are put
// in place as they close. Everything smaller is parsed as part of a run. So JSON.parse still does
// the parsing and validation, of pieces that take a few milliseconds each; this file checks only
// what lies between the pieces (commas, keys, brackets). One string longer than a piece is still
// parsed in one go, which is fast: it is copied, not built.
import { createYielder, type Yielder } from "../yield-now.ts";

const CHUNK_CHARS = 256 * 1024;
const MAX_DEPTH = 512;
/** Characters scanned between checks of the yielder's clock. */
const STEP = 64 * 1024;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

const NONE = 0;
const STRING = 1;
const OPEN = 2;
const CLOSE = 3;
const SEPARATOR = 4;
const KIND = new Uint8Array(128);
KIND[QUOTE] = STRING;
KIND[OPEN_BRACE] = OPEN;
KIND[OPEN_BRACKET] = OPEN;
KIND[CLOSE_BRACE] = CLOSE;
KIND[CLOSE_BRACKET] = CLOSE;
KIND[COMMA] = SEPARATOR;

export class JsonTextError extends Error {}

interface CooperativeJsonOptions {
  yielder?: Yielder;
  /** Smaller pieces for tests; the default suits production. */
  chunkChars?: number;
}

interface Frame {
  start: number;
  isObject: boolean;
  /** Where this container's members not yet handed to JSON.parse begin. */
  pending: number;
  /** The last comma between this container's own members (-1: none yet). */
  lastComma: number;
  /** Set once the container is built member by member. */
  value?: Record<string, unknown> | unknown[];
  /** Its key in the parent object, read when it is built. */
  key?: string;
  /** A built child just closed: only space may come before the next comma or the end. */
  afterChild: boolean;
}

export async function parseJsonCooperatively(text: string, opts: CooperativeJsonOptions = {}): Promise<unknown> {
  const chunk = opts.chunkChars ?? CHUNK_CHARS;
  if (text.length < chunk) return parsePiece(text);
  return new Walk(text, chunk, opts.yielder ?? createYielder()).run();
}

function parsePiece(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new JsonTextError(err instanceof Error ? err.message : String(err));
  }
}

class Walk {
  private readonly stack: Frame[] = [];
  private root: Frame | undefined;

  constructor(
    private readonly text: string,
    private readonly chunk: number,
    private readonly yielder: Yielder,
  ) {}

  async run(): Promise<unknown> {
    for (let at = 0; at < this.text.length; ) {
      at = this.scan(at, Math.min(this.text.length, at + STEP));
      await this.yielder.maybeYield();
    }
    if (this.stack.length > 0) throw new JsonTextError("The JSON text ends inside an object or array");
    // Nothing grew past a piece: a value JSON.parse takes in one go (or refuses).
    if (this.root?.value === undefined) return parsePiece(this.text);
    return this.root.value;
  }

  /**
   * Walks text[from, to) and returns where to go on from (past `to` when a string ran over it).
   * Synchronous on purpose: in an async function the loop's variables would live on the heap.
   */
  private scan(from: number, to: number): number {
    const text = this.text;
    let i = from;
    for (; i < to; i++) {
      // Most characters are none of the six this walk looks at: one table look-up passes them.
      const c = text.charCodeAt(i);
      const kind = c < 128 ? KIND[c] : NONE;
      if (kind === NONE) continue;
      if (kind === STRING) i = stringEnd(text, i);
      else if (kind === OPEN) this.open(i, c === OPEN_BRACE);
      else if (kind === SEPARATOR) this.comma(i);
      else this.close(i, c === CLOSE_BRACE);
    }
    return i;
  }

  private open(at: number, isObject: boolean): void {
    const parent = this.stack.at(-1);
    if (parent === undefined && this.root !== undefined) throw new JsonTextError(`Unexpected text after the JSON value at offset ${at}`);
    if (this.stack.length >= MAX_DEPTH) throw new JsonTextError(`JSON nested deeper than ${MAX_DEPTH} levels at offset ${at}`);
    if (parent !== undefined) this.flushIfLong(parent, at);
    const frame: Frame = { start: at, isObject, pending: at + 1, lastComma: -1, afterChild: false };
    this.stack.push(frame);
    this.root ??= frame;
  }

  private comma(at: number): void {
    const frame = this.stack.at(-1);
    if (frame === undefined) throw new JsonTextError(`Unexpected "," at offset ${at}`);
    if (frame.afterChild) {
      this.expectSpace(frame.pending, at);
      frame.afterChild = false;
      frame.pending = at + 1;
    }
    frame.lastComma = at;
    this.flushIfLong(frame, at);
  }

  private close(at: number, isObject: boolean): void {
    const frame = this.stack.pop();
    if (frame === undefined || frame.isObject !== isObject) throw new JsonTextError(`Unmatched "${this.text[at]}" at offset ${at}`);
    if (frame.value === undefined && at - frame.pending < this.chunk) return;
    if (frame.afterChild) this.expectSpace(frame.pending, at);
    else {
      this.stack.push(frame);
      this.build(frame);
      this.stack.pop();
      if (skipSpace(this.text, frame.pending) < at) this.addMembers(frame, frame.pending, at);
      // Nothing after a comma; nothing at all is an empty container.
      else if (frame.pending > frame.start + 1) throw new JsonTextError(`Trailing comma before offset ${at}`);
    }
    const parent = this.stack.at(-1);
    if (parent === undefined) {
      if (skipSpace(this.text, 0) !== frame.start) throw new JsonTextError(`Unexpected text before offset ${frame.start}`);
      const after = skipSpace(this.text, at + 1);
      if (after < this.text.length) throw new JsonTextError(`Unexpected text after the JSON value at offset ${after}`);
      return;
    }
    const value = frame.value ?? [];
    if (Array.isArray(parent.value)) parent.value.push(value);
    else if (parent.value !== undefined) define(parent.value, frame.key ?? "", value);
    parent.pending = at + 1;
    parent.afterChild = true;
  }

  /** Hands a long run of finished members to JSON.parse, building the container if need be. */
  private flushIfLong(frame: Frame, at: number): void {
    if (at - frame.pending < this.chunk || frame.lastComma < frame.pending || frame.afterChild) return;
    this.build(frame);
    this.addMembers(frame, frame.pending, frame.lastComma);
    frame.pending = frame.lastComma + 1;
  }

  /** Starts building `frame` (and so every container it is in): its parent's finished members go first. */
  private build(frame: Frame): void {
    if (frame.value !== undefined) return;
    const index = this.stack.indexOf(frame);
    const parent = this.stack[index - 1];
    if (parent !== undefined) {
      this.build(parent);
      if (!parent.afterChild && parent.lastComma >= parent.pending) {
        this.addMembers(parent, parent.pending, parent.lastComma);
        parent.pending = parent.lastComma + 1;
      }
      if (parent.afterChild) throw new JsonTextError(`Expected "," at offset ${frame.start}`);
      frame.key = parent.isObject ? this.key(parent.pending, frame.start) : this.noKey(parent.pending, frame.start);
    }
    frame.value = frame.isObject ? {} : [];
  }

  /** Members text[from, to) (whole members, no trailing comma) into the built container. */
  private addMembers(frame: Frame, from: number, to: number): void {
    if (skipSpace(this.text, from) >= to) throw new JsonTextError(`Expected a value at offset ${from}`);
    const members = this.text.slice(from, to);
    const parsed = parsePiece(frame.isObject ? `{${members}}` : `[${members}]`);
    const out = frame.value;
    if (Array.isArray(out)) for (const item of parsed as unknown[]) out.push(item);
    else if (out !== undefined) for (const [key, value] of Object.entries(parsed as Record<string, unknown>)) define(out, key, value);
  }

  private expectSpace(from: number, to: number): void {
    const at = skipSpace(this.text, from);
    if (at < to) throw new JsonTextError(`Expected "," at offset ${at}`);
  }

  /** An array member starts right at its value: nothing but space (no stray comma) before it. */
  private noKey(at: number, valueStart: number): undefined {
    this.expectSpace(at, valueStart);
    return undefined;
  }

  /** `"key" :` from `at`, ending right before the value at `valueStart`. */
  private key(at: number, valueStart: number): string {
    const from = skipSpace(this.text, at);
    if (this.text.charCodeAt(from) !== QUOTE) throw new JsonTextError(`Expected a key at offset ${from}`);
    const close = stringEnd(this.text, from);
    const colon = skipSpace(this.text, close + 1);
    if (this.text.charCodeAt(colon) !== COLON || skipSpace(this.text, colon + 1) !== valueStart)
      throw new JsonTextError(`Expected ":" at offset ${colon}`);
    return parsePiece(this.text.slice(from, close + 1)) as string;
  }
}

/** Offset of the quote that closes the string opened at `start`. */
function stringEnd(text: string, start: number): number {
  let at = start + 1;
  for (;;) {
    const quote = text.indexOf('"', at);
    if (quote === -1) throw new JsonTextError(`Unterminated string at offset ${start}`);
    let slashes = 0;
    while (text.charCodeAt(quote - 1 - slashes) === BACKSLASH) slashes++;
    if (slashes % 2 === 0) return quote;
    at = quote + 1;
  }
}

function skipSpace(text: string, at: number): number {
  let i = at;
  for (;;) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return i;
    i++;
  }
}

/** As JSON.parse does: "__proto__" becomes an own property, never the object's prototype. */
function define(out: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__") Object.defineProperty(out, key, { value, writable: true, enumerable: true, configurable: true });
  else out[key] = value;
}
