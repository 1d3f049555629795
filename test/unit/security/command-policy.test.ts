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
    ["npm", "i", "lodash@4", "./vendor/pkg", "@types/node@20", "alias@npm:lodash"],
    ["npm", "view", "lodash", "versions"],
    ["npm", "run", "exe"],
    ["npm", "run", "build", "--", "git+file:///outside"],
    ["cargo", "t", "--", "--nocapture"],
    ["cargo", "+stable", "build"],
    ["cargo", "clippy", "--", "-D", "warnings"],
    ["cargo", "rustc", "--release", "--", "-C", "opt-level=3", "-Clink-dead-code"],
    ["cargo", "fmt", "--", "--check"],
    ["cargo", "nextest", "run"],
    ["go", "build", "-ldflags=-s -w", "./..."],
    ["go", "build", "-ldflags", "-linkmode=external -extldflags -static", "."],
    ["go", "mod", "edit", "-replace=example.com/x=./vendor/x"],
    ["vitest", "run", "--reporter=verbose", "--coverage.enabled"],
    ["eslint", "--format", "json", "src"],
    ["git", "commit", "-m", "see http://127.0.0.1:8080/"],
    ["git", "fetch", "origin", "main:main"],
  ])("allows %s %s", (...line) => {
    expect(check(line)).toBeUndefined();
  });

  it.each([
    [["npm", "exe", "cowsay"], /npm exec/],
    [["npm", "eXe", "cowsay"], undefined],
    [["npm", "installTest", "github:u/r"], /git dependency/],
    [["npm", "i", "u/r"], /git dependency/],
    [["npm", "i", "https://github.com/u/r"], /git dependency/],
    [["npm", "-L", "global", "i", "x"], /-L/],
    [["npm", "--init.module=/x.js", "init"], /init-module/],
    [["npm", "profile", "get"], /registry account/],
    [["git", "help", "--web", "log"], /browser/],
    [["git", "maintenance", "register"], /scheduler/],
    [["git", "credential-store", "get"], /credentials/],
    [["git", "remote-https", "origin"], /remote helper/],
    [["git", "ls-remote", "persistent-https::x"], /remote helper/],
    [["git", "init", "--template=tpl", "x"], /--template/],
    [["cargo", "watch", "-s", "touch x"], /cargo-watch/],
    [["cargo", "clippy", "--", "-Clinker=x"], /linker/],
    [["cargo", "rustdoc", "--", "--test-builder=x"], /test-builder|doctests/],
    [["cargo", "rustc", "--", "-C", "linker-plugin-lto=/x.so"], /linker/],
    [["cargo", "+~/tc", "build"], /toolchain by its path/],
    [["go", "build", "-gccgoflags", "-wrapper x", "."], /C compiler or linker/],
    [["go", "build", "-ldflags=-extldflags=@flags.txt", "."], /C compiler or linker/],
    [["go", "tool", "pprof", "-http=:0", "x"], /go tool/],
    [["vitest", "--api.port", "0"], /--api/],
    [["vitest", "--inspectBrk"], /inspect-brk|inspect/],
    [["eslint", "--init"], /npm init/],
    [["jest", "--config", ' {"transform":{}}'], /inline JSON/],
    [["jest", "--testRunner", '["/tmp/x.js"]'], /outside the workspace/],
    [["go", "mod", "edit", "-replace=example.com/x=../../elsewhere"], /outside the workspace/],
    [["npm", "diff", "--diff=git+file:///outside/repo"], /git dependency/],
    [["npm", "diff", "--diff", "http://127.0.0.1/x.tgz"], /from a URL/],
    [["npm", "diff", "--diff=../../outside"], /outside the workspace/],
    [["cargo", "d", "--open"], /browser/],
    [["go", "doc", "-http=:6060"], /browser/],
  ] as const)("refuses %j", (line, reason) => {
    const verdict = check([...line]);
    if (reason === undefined) expect(verdict).toBeUndefined();
    else expect(verdict?.why).toMatch(reason);
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
