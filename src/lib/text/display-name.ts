// File names from disk as a model reads them, since a name is attacker-controlled text: it may hold a newline, so that
// `x\n  passwords.txt (9 B)` looks like a second entry in a tree, or bidi overrides that make the
// text read differently from what it is. Such characters are written as escapes (\n, \u{202E}),
// and a backslash as "\\" so every name stays unambiguous. Ordinary names pass unchanged.
const NAMED: Readonly<Record<string, string>> = { "\n": "\\n", "\r": "\\r", "\t": "\\t", "\\": "\\\\" };

// C0 and C1 controls and DEL; bidi embeddings, overrides, isolates and marks (U+061C, U+200E-F,
// U+202A-E, U+2066-9); zero-width characters and BOM (U+200B-D, U+2060, U+FEFF); line and paragraph
// separators (U+2028-9). The backslash, so that escapes are not ambiguous.
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060\u2066-\u2069\ufeff\\]/g;

/** A name or a whole path ("/" is left alone). */
export function displayName(name: string): string {
  return name.replace(UNSAFE, (ch) => NAMED[ch] ?? `\\u{${(ch.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}}`);
}
