// Terminal output as text: what shell integration reads is the raw stream, with colour codes,
// cursor moves, window titles, spinners and VS Code's own shell-integration marks in it. A model
// (and a pattern) reads the text as the terminal shows it: escape sequences go, a carriage return
// (or a move to the first column) starts the line over, a backspace takes back a character.
// Every regex here runs in linear time (no nested quantifiers).
const OSC = /\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)/g;
/** Cursor to column 1 (CSI G, CSI 1G): what spinners and progress bars do instead of \r. */
const TO_COLUMN_ONE = /\u001b\[1?G/g;
const CSI = /\u001b\[[0-?]*[ -/]*[@-~]/g;
const OTHER_ESCAPE = /\u001b[@-Z\\-_]/g;
const CONTROL = /[\u0000-\u0007\u000b\u000c\u000e-\u001f\u007f]/g;

export function terminalText(raw: string): string {
  const plain = raw
    .replace(OSC, "")
    .replace(TO_COLUMN_ONE, "\r")
    .replace(CSI, "")
    .replace(OTHER_ESCAPE, "")
    .replace(CONTROL, "")
    .replace(/\r+\n/g, "\n");
  return plain.split("\n").map(showLine).join("\n");
}

/** A line as the terminal leaves it: what follows the last carriage return, backspaces applied. */
function showLine(line: string): string {
  const last = line.slice(line.lastIndexOf("\r") + 1);
  if (!last.includes("\b")) return last;
  const out: string[] = [];
  for (const ch of last) {
    if (ch === "\b") out.pop();
    else out.push(ch);
  }
  return out.join("");
}
