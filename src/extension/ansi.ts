// Terminal output as text: what shell integration reads is the raw stream, with colour codes,
// cursor moves, window titles and VS Code's own shell-integration marks in it. A model (and a
// pattern) reads the text, so escape sequences go and carriage returns become line ends.
// The one regex runs in linear time (no nested quantifiers).
const ESCAPES =
  // OSC (title, hyperlinks, shell-integration marks) to BEL or ST; CSI with parameters; other two-byte escapes.
  /\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b\[[0-?]*[ -/]*[@-~]|\u001b[@-Z\\-_]|[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;

export function terminalText(raw: string): string {
  return raw.replace(ESCAPES, "").replace(/\r+\n/g, "\n").replace(/\r/g, "\n");
}
