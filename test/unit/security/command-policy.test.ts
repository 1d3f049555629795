// The allowlist's rules without processes: what ordinary development commands look like must pass
// (no false alarms on git log -c, npm run, cargo test -- ...), and what runner subcommands a user
// allowed by name are let through, still without a shell.
import { describe, expect, it } from "vitest";
import { allowEntryProblem, checkCommandLine, createCommandPolicy } from "../../../src/security/commands/command-policy.ts";
import { isNeverAllowed, programBase } from "../../../src/security/commands/interpreters.ts";

const place = { cwd: "/ws/sub", folders: ["/ws", "/other-folder"] };
const policy = createCommandPolicy([]);
const check = (line: string[], p = policy) => checkCommandLine(p, { command: line[0] ?? "", args: line.slice(1), place });

describe("the command policy", () => {
  it.each([
    ["git", "status", "--short"],
    ["git", "log", "-c", "--oneline", "-n", "5"],
    ["git", "add", "-u"],
    ["git", "push", "-u", "origin", "feature"],
    ["git", "commit", "-m", "fix: a; b && c | d $(e)"],
    ["git", "config", "--get", "user.name"],
    ["git", "config", "list"],
    ["git", "diff", "--exit-code", "--", "../sub2/file.ts"],
    ["git", "cherry-pick", "-x", "abc123"],
    ["git", "-C", "/ws/pkg", "status"],
    ["git", "log", "--format=%H %s", "HEAD~3..HEAD"],
    ["npm", "run", "build", "--", "--watch"],
    ["npm", "install", "-D", "vitest"],
    ["npm", "run", "exec"],
    ["npm", "test"],
    ["npm", "-w", "packages/a", "run", "lint"],
    ["npm", "config", "get", "registry"],
    ["npm", "install", "@scope/pkg", "--save-exact"],
    ["cargo", "test", "--", "--nocapture"],
    ["cargo", "run", "--release", "--", "--config", "x"],
    ["cargo", "build", "--manifest-path", "/ws/crate/Cargo.toml"],
    ["go", "test", "./...", "-run", "TestX"],
    ["go", "build", "-o", "bin/app", "./cmd/app"],
    ["go", "run", "./cmd/tool"],
    ["go", "test", "./...", "-args", "-exec", "x"],
    ["pytest", "-k", "a or b", "-x", "-p", "no:cacheprovider"],
    ["vitest", "run", "-t", "parses"],
    ["jest", "--config", "jest.config.js"],
    ["eslint", "--fix", "src"],
    ["tsc", "-p", "tsconfig.json", "--noEmit"],
    ["biome", "check", "--write", "."],
    ["git", "show", "/other-folder/x"],
  ])("allows %s %s", (...line) => {
    expect(check(line)).toBeUndefined();
  });

  it("lets a runner subcommand through only when the user allowed it by name, and never with a shell", () => {
    expect(check(["npm", "exec", "cowsay"])?.suggestion).toMatch(/--allow-command "npm exec"/);
    const allowing = createCommandPolicy(["npm exec", "go run", "npx"]);
    expect(check(["npm", "exec", "cowsay"], allowing)).toBeUndefined();
    expect(check(["npm", "x", "cowsay"], allowing)).toBeUndefined();
    expect(check(["go", "run", "golang.org/x/tools/cmd/stringer@latest"], allowing)).toBeUndefined();
    expect(check(["npx", "cowsay"], allowing)).toBeUndefined();
    expect(check(["npm", "exec", "-c", "touch x"], allowing)?.why).toMatch(/shell command line/);
    expect(check(["npx", "--call", "touch x"], allowing)?.why).toMatch(/-call|shell/);
    expect(check(["npx", "cowsay"])?.why).toMatch(/not on the bridge's command allowlist/);
  });

  it("refuses interpreters under any version suffix, as an --allow-command entry too", () => {
    for (const name of ["python3.12", "node20", "pypy3", "ruby3.2", "perl5.36", "bash5", "lua5.4", "PYTHON.EXE", "php8.2"]) {
      expect(isNeverAllowed(name), name).toBe(true);
      expect(allowEntryProblem(name), name).toMatch(/can never be allowed/);
    }
    for (const name of ["git", "npm", "cargo", "go", "pytest", "vitest", "tsc", "eslint", "biome", "rustfmt", "prettier"])
      expect(isNeverAllowed(name), name).toBe(false);
    expect(programBase("python3.12")).toBe("python");
    expect(allowEntryProblem("npm explore")).toMatch(/only these subcommands/);
    expect(allowEntryProblem("/usr/bin/jq")).toMatch(/not a program name/);
    expect(() => createCommandPolicy(["bash"])).toThrow(/can never be allowed/);
  });
});
