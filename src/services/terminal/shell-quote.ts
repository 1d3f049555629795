// A checked argv as the line a terminal's shell reads back as exactly that argv. The line is typed
// into the user's shell, so its quoting must be that shell's: POSIX shells, fish (whose single
// quotes take \' and \\ as escapes), PowerShell (`&` to call a quoted program, '' for a quote) and
// cmd.exe (double quotes, inside which % and ! still expand, so arguments with them are refused).
// VS Code reports the shell it detected (Terminal.state.shell); for any other shell, or when it has
// not detected one yet, only a line of plain words is sent, since those read the same in every
// shell, and anything else is refused with what to do instead.
import { ToolError } from "../../errors.ts";

type Kind = "posix" | "fish" | "pwsh" | "cmd";

/** VS Code's shell type names (TerminalState.shell) for the shells whose quoting is known. */
const KINDS: Readonly<Record<string, Kind>> = {
  bash: "posix",
  sh: "posix",
  zsh: "posix",
  ksh: "posix",
  dash: "posix",
  ash: "posix",
  gitbash: "posix",
  wsl: "posix",
  fish: "fish",
  pwsh: "pwsh",
  powershell: "pwsh",
  cmd: "cmd",
};

/**
 * Needs no quoting in any of them (no @ , % of POSIX's plain set: PowerShell and cmd read those).
 * Never a leading `=`: zsh expands `=name` to the path of the program `name` (its EQUALS option, on
 * by default).
 */
const PLAIN_EVERYWHERE = /^(?!=)[\w.+\-/=:]+$/;
const POSIX_PLAIN = /^(?!=)[\w.+\-/=:@,%]+$/;

/** One argument for a POSIX shell, quoted only when it needs to be. */
export function posixQuote(arg: string): string {
  return POSIX_PLAIN.test(arg) ? arg : `'${arg.replace(/'/g, "'\\''")}'`;
}

/** One argument for fish: in its single quotes, a backslash escapes a quote or a backslash. */
export function fishQuote(arg: string): string {
  return POSIX_PLAIN.test(arg) ? arg : `'${arg.replace(/[\\']/g, (c) => `\\${c}`)}'`;
}

/** One argument for PowerShell: a single-quoted string, '' for a quote inside. */
export function pwshQuote(arg: string): string {
  return PLAIN_EVERYWHERE.test(arg) ? arg : `'${arg.replace(/['\u2018\u2019\u201a\u201b]/g, "$&$&")}'`;
}

/** One argument for cmd.exe, or undefined when cmd would change it whatever the quoting. */
export function cmdQuote(arg: string): string | undefined {
  if (/["%!\r\n]/.test(arg)) return undefined;
  return PLAIN_EVERYWHERE.test(arg) ? arg : `"${arg}"`;
}

function refuse(why: string): never {
  throw new ToolError("command_refused", why, {
    suggestion: "Run it with runCommand (no shell, the same checks), or pass arguments without those characters.",
  });
}

/**
 * The line to type for `argv` run in `cwd` (absolute, checked) in a terminal whose shell VS Code
 * detected as `shell` (undefined: not detected). Throws a command_refused ToolError when that
 * shell's quoting cannot carry the arguments.
 */
export function terminalCommandLine(shell: string | undefined, argv: readonly string[], opts: { cwd?: string } = {}): string {
  const { cwd } = opts;
  if (argv.some((a) => /[\r\n\0]/.test(a)) || (cwd !== undefined && /[\r\n\0]/.test(cwd)))
    refuse("An argument holds a line break or NUL, which a terminal would take as the end of the command.");
  const kind = shell === undefined ? undefined : KINDS[shell.toLowerCase()];
  const words = cwd === undefined ? argv : [...argv, cwd];
  if (kind === undefined) {
    if (words.every((w) => PLAIN_EVERYWHERE.test(w))) return cwd === undefined ? argv.join(" ") : `cd ${cwd} && ${argv.join(" ")}`;
    const which = shell === undefined ? "VS Code has not detected the terminal's shell yet" : `the terminal runs ${shell}`;
    refuse(`The command needs quoting, and ${which}: the bridge quotes only for POSIX shells, fish, PowerShell and cmd.exe.`);
  }
  switch (kind) {
    case "posix":
    case "fish": {
      const quote = kind === "fish" ? fishQuote : posixQuote;
      const line = argv.map(quote).join(" ");
      return cwd === undefined ? line : `cd ${quote(cwd)} && ${line}`;
    }
    case "pwsh": {
      if (argv.some((a) => a === "" || a.includes('"')))
        refuse("PowerShell passes an empty argument or one with a double quote to programs differently by version.");
      const line = `& ${argv.map(pwshQuote).join(" ")}`;
      // `;` with $?, not &&: Windows PowerShell 5.1 has no &&.
      return cwd === undefined ? line : `Set-Location -LiteralPath ${pwshQuote(cwd)}; if ($?) { ${line} }`;
    }
    case "cmd": {
      const quoted = words.map(cmdQuote);
      if (quoted.some((q) => q === undefined)) refuse('cmd.exe expands % and ! even inside quotes, and cannot quote a ".');
      const line = quoted.slice(0, argv.length).join(" ");
      return cwd === undefined ? line : `cd /d ${quoted.at(-1)} && ${line}`;
    }
  }
}
