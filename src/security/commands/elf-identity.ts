// What an executable is, by its content rather than its name or path: whether an ELF binary is a
// language interpreter or a shell (src/security/commands/executable-identity.ts asks, for every
// program runCommand is about to start). A copy of the system python placed as
// node_modules/.bin/vitest is Python wherever it lies and whatever it is called, and a pyenv or
// asdf shim on PATH does not hide the real binary's identity.
//
// The marks, read from the ELF headers only (a few KB to a few MB, never the whole file):
//   - a library it needs (DT_NEEDED) is an interpreter's: libpython*, libperl*, libruby*, libnode*,
//     liblua*, libtcl*, libphp*, libjli (Java), libjulia, libguile, libR;
//   - a symbol it defines and exports for extensions is an interpreter's entry point: Py_BytesMain,
//     napi_create_function (Node, Bun and Deno alike), perl_parse, ruby_run_node, bash's
//     parse_and_execute...;
//   - for stripped shells that export nothing (dash, busybox, mksh), a string in .rodata that only
//     a shell holds: "PS4=+ ", "BusyBox v", "ZSH_VERSION", "KSH_VERSION".
// Scripts (#!) are not judged here: their arguments go to the script, not to its interpreter.
// Not ELF (Mach-O, PE): undefined, and the name and copy checks are what remains.

/** Reads bytes of the file being judged. */
export interface ByteSource {
  readonly size: number;
  read(position: number, length: number): Promise<Uint8Array>;
}

const NEEDED = /^lib(python|perl|ruby|node|lua|luajit|tcl|php|jli|julia|guile|R)[\d.\-_]*(so|m\b|\.)/;
const DEFINED: Readonly<Record<string, string>> = {
  Py_BytesMain: "Python",
  Py_Main: "Python",
  Py_RunMain: "Python",
  napi_create_function: "a JavaScript runtime (Node, Bun, Deno)",
  _ZN4node5StartEiPPc: "Node",
  JS_Eval: "a JavaScript engine (QuickJS)",
  perl_parse: "Perl",
  ruby_run_node: "Ruby",
  ruby_options: "Ruby",
  php_execute_script: "PHP",
  zend_eval_string: "PHP",
  luaL_loadstring: "Lua",
  luaL_loadbufferx: "Lua",
  Tcl_EvalEx: "Tcl",
  Tcl_Main: "Tcl",
  JLI_Launch: "Java",
  jl_eval_string: "Julia",
  scm_c_eval_string: "Guile",
  Rf_initEmbeddedR: "R",
  parse_and_execute: "bash",
};
const SHELL_STRINGS: readonly [string, string][] = [
  ["PS4=+ ", "a POSIX shell (dash, ash)"],
  ["BusyBox v", "BusyBox (a shell and a hundred tools)"],
  ["ZSH_VERSION", "zsh"],
  ["KSH_VERSION", "ksh"],
  ["BASH_VERSION", "bash"],
];
/** Sections larger than this are not read (no interpreter needs more to be recognised). */
const MAX_SECTION = 64 * 1024 * 1024;
const CHUNK = 1024 * 1024;

interface Section {
  name: number;
  type: number;
  offset: number;
  size: number;
  link: number;
}

interface Elf {
  is64: boolean;
  little: boolean;
  sections: Section[];
  src: ByteSource;
}

/** What interpreter or shell `src` is, or undefined when it is none (or not ELF). */
export async function interpreterIdentity(src: ByteSource): Promise<string | undefined> {
  const elf = await readElf(src);
  if (elf === undefined) return undefined;
  const dynsym = elf.sections.find((s) => s.type === 11);
  const dynamic = elf.sections.find((s) => s.type === 6);
  for (const needed of dynamic === undefined ? [] : await neededLibraries(elf, dynamic)) {
    const m = NEEDED.exec(needed);
    if (m !== null) return `an interpreter (it is built on ${needed})`;
  }
  if (dynsym !== undefined) {
    const defined = await definedSymbols(elf, dynsym);
    const hit = defined.find((name) => DEFINED[name] !== undefined);
    if (hit !== undefined) return `${DEFINED[hit]} (it defines ${hit})`;
  }
  return shellStrings(elf);
}

async function readElf(src: ByteSource): Promise<Elf | undefined> {
  if (src.size < 64) return undefined;
  const head = await src.read(0, 64);
  if (head[0] !== 0x7f || head[1] !== 0x45 || head[2] !== 0x4c || head[3] !== 0x46) return undefined;
  const is64 = head[4] === 2;
  const little = head[5] === 1;
  const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
  const shoff = is64 ? Number(view.getBigUint64(0x28, little)) : view.getUint32(0x20, little);
  const shentsize = view.getUint16(is64 ? 0x3a : 0x2e, little);
  const shnum = view.getUint16(is64 ? 0x3c : 0x30, little);
  if (shoff === 0 || shnum === 0 || shentsize < (is64 ? 64 : 40) || shoff + shnum * shentsize > src.size) return undefined;
  const table = await src.read(shoff, shnum * shentsize);
  const tv = new DataView(table.buffer, table.byteOffset, table.byteLength);
  const sections: Section[] = [];
  for (let i = 0; i < shnum; i++) {
    const at = i * shentsize;
    sections.push({
      name: tv.getUint32(at, little),
      type: tv.getUint32(at + 4, little),
      offset: is64 ? Number(tv.getBigUint64(at + 24, little)) : tv.getUint32(at + 16, little),
      size: is64 ? Number(tv.getBigUint64(at + 32, little)) : tv.getUint32(at + 20, little),
      link: tv.getUint32(at + (is64 ? 40 : 24), little),
    });
  }
  return { is64, little, sections, src };
}

async function sectionBytes(elf: Elf, s: Section | undefined): Promise<Uint8Array | undefined> {
  if (s === undefined || s.size === 0 || s.size > MAX_SECTION || s.offset + s.size > elf.src.size) return undefined;
  return elf.src.read(s.offset, s.size);
}

function cString(bytes: Uint8Array, at: number): string {
  const end = bytes.indexOf(0, at);
  return new TextDecoder().decode(bytes.subarray(at, end === -1 ? bytes.length : end));
}

async function neededLibraries(elf: Elf, dynamic: Section): Promise<string[]> {
  const [dyn, strings] = await Promise.all([sectionBytes(elf, dynamic), sectionBytes(elf, elf.sections[dynamic.link])]);
  if (dyn === undefined || strings === undefined) return [];
  const view = new DataView(dyn.buffer, dyn.byteOffset, dyn.byteLength);
  const size = elf.is64 ? 16 : 8;
  const libs: string[] = [];
  for (let at = 0; at + size <= dyn.length; at += size) {
    const tag = elf.is64 ? Number(view.getBigInt64(at, elf.little)) : view.getInt32(at, elf.little);
    if (tag === 0) break;
    if (tag !== 1) continue;
    const value = elf.is64 ? Number(view.getBigUint64(at + 8, elf.little)) : view.getUint32(at + 4, elf.little);
    libs.push(cString(strings, value));
  }
  return libs;
}

/** The names of DEFINED that the file's dynamic symbol table defines (not merely imports). */
async function definedSymbols(elf: Elf, dynsym: Section): Promise<string[]> {
  const [syms, strings] = await Promise.all([sectionBytes(elf, dynsym), sectionBytes(elf, elf.sections[dynsym.link])]);
  if (syms === undefined || strings === undefined) return [];
  // Where each wanted name sits in the string table: a symbol names it by that offset.
  const table = new TextDecoder("latin1").decode(strings);
  const wanted = new Map<number, string>();
  for (const name of Object.keys(DEFINED)) {
    for (let at = table.indexOf(`\0${name}\0`); at !== -1; at = table.indexOf(`\0${name}\0`, at + 1)) wanted.set(at + 1, name);
  }
  if (wanted.size === 0) return [];
  const view = new DataView(syms.buffer, syms.byteOffset, syms.byteLength);
  const size = elf.is64 ? 24 : 16;
  const found: string[] = [];
  for (let at = size; at + size <= syms.length; at += size) {
    const name = wanted.get(view.getUint32(at, elf.little));
    if (name !== undefined && view.getUint16(at + (elf.is64 ? 6 : 14), elf.little) !== 0) found.push(name);
  }
  return found;
}

/** A shell's own strings in .rodata, read a chunk at a time (a few overlapping bytes between chunks). */
async function shellStrings(elf: Elf): Promise<string | undefined> {
  const names = await sectionBytes(elf, elf.sections[(await shstrndx(elf)) ?? -1]);
  if (names === undefined) return undefined;
  const rodata = elf.sections.find((s) => cString(names, s.name) === ".rodata");
  if (rodata === undefined || rodata.size > MAX_SECTION) return undefined;
  const needles = SHELL_STRINGS.map(([text, what]) => [new TextEncoder().encode(`${text}\0`), what] as const);
  const overlap = Math.max(...needles.map(([n]) => n.length));
  for (let pos = 0; pos < rodata.size; pos += CHUNK) {
    const length = Math.min(CHUNK + overlap, rodata.size - pos);
    const chunk = await elf.src.read(rodata.offset + pos, length);
    for (const [needle, what] of needles) if (indexOf(chunk, needle) !== -1) return what;
  }
  return undefined;
}

async function shstrndx(elf: Elf): Promise<number | undefined> {
  const head = await elf.src.read(0, 64);
  const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
  const index = view.getUint16(elf.is64 ? 0x3e : 0x32, elf.little);
  return index < elf.sections.length ? index : undefined;
}

/** Where `needle` starts in `hay` as a whole NUL-terminated string, or -1. */
function indexOf(hay: Uint8Array, needle: Uint8Array): number {
  const first = needle[0] ?? 0;
  for (let at = hay.indexOf(first); at !== -1; at = hay.indexOf(first, at + 1)) {
    // A string in a string table starts after a NUL (or at the start of the section).
    if (at > 0 && hay[at - 1] !== 0) continue;
    let i = 1;
    while (i < needle.length && hay[at + i] === needle[i]) i++;
    if (i === needle.length) return at;
  }
  return -1;
}
