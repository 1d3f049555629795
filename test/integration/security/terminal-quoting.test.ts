// The line typed into a VS Code terminal for a checked argv (src/services/terminal/shell-quote.ts):
// for POSIX shells it is run by the real sh, bash and dash here and must give back exactly the argv;
// fish, PowerShell and cmd.exe are not on this machine, so their lines are compared with what their
// quoting rules give; an unknown or undetected shell gets plain words only, anything else refused.
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { ToolError } from "../../../src/errors.ts";
import { terminalCommandLine } from "../../../src/services/terminal/shell-quote.ts";

const HOSTILE = [
  "a b",
  "it's",
  "$(id)",
  "`id`",
  "x;y",
  "a&&b",
  "*",
  "~",
  "!x",
  "%PATH%",
  'say "hi"',
  "back\\slash",
  "\\'",
  "",
  "-e",
  "ü",
  "=ls",
  "a=b",
];

function refusal(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    if (err instanceof ToolError && err.code === "command_refused") return err.message;
    throw err;
  }
  throw new Error("not refused");
}

describe("terminal command lines", () => {
  it.each(["sh", "bash", "dash"])("%s reads the POSIX line back as exactly the argv, in the checked directory", (shell) => {
    const argv = ["printf", "%s\\0", ...HOSTILE];
    const line = terminalCommandLine(shell === "dash" ? "sh" : shell, argv, { cwd: "/tmp" });
    const out = execFileSync(shell, ["-c", `${line}; printf '%s\\0' "$PWD"`], { encoding: "utf8", cwd: "/" });
    expect(out.split("\0").slice(0, -1)).toEqual([...HOSTILE, "/tmp"]);
  });

  it("fish: single quotes in which a backslash escapes a quote or a backslash", () => {
    expect(terminalCommandLine("fish", ["echo", "it's", "a\\b", "plain"], { cwd: "/w s" })).toBe(
      "cd '/w s' && echo 'it\\'s' 'a\\\\b' plain",
    );
  });

  it("PowerShell: the call operator, '' for a quote (the typographic ones too), Set-Location and $? for the directory", () => {
    expect(terminalCommandLine("pwsh", ["npm", "run", "it's", "a,b", "@x", "$env:HOME"])).toBe("& npm run 'it''s' 'a,b' '@x' '$env:HOME'");
    expect(terminalCommandLine("pwsh", ["npm", "x\u2019y"], { cwd: "C:/w s" })).toBe(
      "Set-Location -LiteralPath 'C:/w s'; if ($?) { & npm 'x\u2019\u2019y' }",
    );
    expect(refusal(() => terminalCommandLine("pwsh", ["npm", ""]))).toMatch(/PowerShell/);
    expect(refusal(() => terminalCommandLine("pwsh", ["npm", 'say "hi"']))).toMatch(/PowerShell/);
  });

  it('cmd.exe: double quotes, cd /d; % and ! (which expand inside quotes) and " refused', () => {
    expect(terminalCommandLine("cmd", ["npm", "run", "a&b", "x y"], { cwd: "C:/w s" })).toBe('cd /d "C:/w s" && npm run "a&b" "x y"');
    for (const arg of ["%PATH%", "!x!", 'a"b']) expect(refusal(() => terminalCommandLine("cmd", ["npm", arg]))).toMatch(/cmd\.exe/);
  });

  it("an undetected or unknown shell gets plain words only; anything needing quotes is refused, naming the shell", () => {
    expect(terminalCommandLine(undefined, ["npm", "run", "build", "--x=1"], { cwd: "/w/a" })).toBe("cd /w/a && npm run build --x=1");
    expect(refusal(() => terminalCommandLine(undefined, ["npm", "run", "a b"]))).toMatch(/not detected the terminal's shell/);
    expect(refusal(() => terminalCommandLine("nu", ["npm", "it's"]))).toMatch(/the terminal runs nu/);
    // Plain in POSIX but not in PowerShell or cmd: @ (splatting), comma (arrays), % (cmd's variables).
    for (const arg of ["@x", "a,b", "%x"]) expect(() => terminalCommandLine(undefined, ["npm", arg])).toThrow(ToolError);
    // zsh reads a leading = as "the path of this program".
    expect(() => terminalCommandLine(undefined, ["npm", "=ls"])).toThrow(ToolError);
    expect(terminalCommandLine("zsh", ["echo", "=ls", "a=b"])).toBe("echo '=ls' a=b");
  });

  it("a line break or NUL is refused in every shell: the terminal would end the command there", () => {
    for (const shell of ["bash", "fish", "pwsh", "cmd", undefined])
      expect(refusal(() => terminalCommandLine(shell, ["npm", "a\nb"]))).toMatch(/line break/);
  });
});
