// The git policy's pure parts (src/security/git/): the overrides of the repository's program-running
// config, the environment git gets, and runCommand's git rules. Whether git itself obeys them is
// for the integration tests (test/integration/security/git-hostile-table.test.ts).
import { describe, expect, it } from "vitest";
import { gitCommandRefusal, pathCandidates, readGitCommandLine } from "../../../src/security/git/command-git-rules.ts";
import { gitEnvironment } from "../../../src/security/git/git-environment.ts";
import { configOverrides, parseConfigList } from "../../../src/security/git/repo-config-guard.ts";

// As git writes it: the scope and the origin NUL-terminated, then "key\nvalue" NUL-terminated.
const list = (...entries: [string, string, string?][]) =>
  entries.map(([scope, key, value]) => `${scope}\0file:${scope}.cfg\0${value === undefined ? key : `${key}\n${value}`}\0`).join("");
const pairs = (args: string[]) => args.filter((_, i) => i % 2 === 1);

describe("repository config guard", () => {
  it("parses git's -z listing, values with newlines and bare booleans included", () => {
    expect(parseConfigList("global\0file:/home/u/.gitconfig\0user.name\nA\0local\0file:.git/config\0core.bare\0")).toEqual([
      { scope: "global", origin: "file:/home/u/.gitconfig", key: "user.name", value: "A" },
      { scope: "local", origin: "file:.git/config", key: "core.bare", value: "true" },
    ]);
    expect(parseConfigList(list(["global", "user.name", "A\nB"], ["local", "core.bare"], ["local", "x.y", ""]))).toEqual([
      { scope: "global", origin: "file:global.cfg", key: "user.name", value: "A\nB" },
      { scope: "local", origin: "file:local.cfg", key: "core.bare", value: "true" },
      { scope: "local", origin: "file:local.cfg", key: "x.y", value: "" },
    ]);
  });

  it("overrides the repository's program-running keys with the user's own value or a neutral one", () => {
    const entries = parseConfigList(
      list(
        ["global", "core.sshcommand", "ssh -i ~/.ssh/work"],
        ["local", "core.sshcommand", "evil-ssh"],
        ["local", "gpg.program", "evil-gpg"],
        ["local", "merge.ours.driver", "evil %A"],
        ["local", "user.name", "fine"],
        ["worktree", "diff.pic.textconv", "evil-textconv"],
        ["local", "alias.st", "!evil"],
        ["local", "submodule.lib.update", "!evil"],
        ["local", "submodule.doc.update", "rebase"],
        ["local", "trailer.sign.cmd", "evil"],
        ["local", "lfs.customtransfer.x.path", "evil"],
      ),
    );
    const write = configOverrides(entries, "write");
    expect(write.filter((_, i) => i % 2 === 0).every((a) => a === "-c")).toBe(true);
    expect(pairs(write)).toEqual([
      "core.sshcommand=ssh -i ~/.ssh/work",
      "gpg.program=gpg",
      "merge.ours.driver=git merge-file --marker-size=%L %A %O %B",
      "diff.pic.textconv=",
      "alias.st=",
      "submodule.lib.update=checkout",
      "trailer.sign.cmd=",
      "lfs.customtransfer.x.path=",
    ]);
    expect(configOverrides(entries, "remote")).toEqual(write);
    expect(configOverrides(entries, "read")).toEqual(write);
  });

  it("takes every command of a repository's filter away; a write makes the filter required, so git refuses instead of storing unfiltered", () => {
    const entries = parseConfigList(list(["local", "filter.crypt.smudge", "evil-smudge"], ["local", "filter.crypt.required", "false"]));
    const filter = ["filter.crypt.clean=", "filter.crypt.smudge=", "filter.crypt.process="];
    expect(pairs(configOverrides(entries, "read"))).toEqual([...filter, "filter.crypt.required=false"]);
    expect(pairs(configOverrides(entries, "write"))).toEqual([...filter, "filter.crypt.required=true"]);
    // The user's own definition of the driver (LFS, in the global config) is put back.
    const lfs = parseConfigList(
      list(
        ["global", "filter.lfs.process", "git-lfs filter-process"],
        ["global", "filter.lfs.required", "true"],
        ["local", "filter.lfs.process", "evil"],
      ),
    );
    expect(pairs(configOverrides(lfs, "read"))).toEqual([
      "filter.lfs.clean=",
      "filter.lfs.smudge=",
      "filter.lfs.process=git-lfs filter-process",
      "filter.lfs.required=true",
    ]);
  });

  it("keeps ext:: and fd:: transports off whatever the repository allows (they run a command)", () => {
    const entries = [
      { scope: "local", key: "protocol.ext.allow", value: "always" },
      { scope: "local", key: "protocol.fd.allow", value: "always" },
      { scope: "local", key: "protocol.allow", value: "always" },
    ];
    expect(configOverrides(entries, "remote")).toEqual([
      "-c",
      "protocol.ext.allow=never",
      "-c",
      "protocol.fd.allow=never",
      "-c",
      "protocol.allow=user",
    ]);
  });

  it("empties the credential helper list and puts the user's helpers back in order", () => {
    const entries = parseConfigList(
      list(
        ["system", "credential.helper", "cache"],
        ["global", "credential.https://example.com.helper", "store"],
        ["local", "credential.helper", "!evil"],
        ["local", "credential.https://x.helper", "!evil2"],
      ),
    );
    expect(configOverrides(entries, "write")).toEqual([
      "-c",
      "credential.helper=",
      "-c",
      "credential.helper=cache",
      "-c",
      "credential.https://example.com.helper=store",
    ]);
  });

  it("leaves the user's own config alone and refuses what it cannot override", () => {
    expect(
      configOverrides(
        parseConfigList(
          list(["global", "core.sshcommand", "x"], ["global", "filter.lfs.clean", "git-lfs clean -- %f"], ["command", "alias.x", "!y"]),
        ),
        "read",
      ),
    ).toEqual([]);
    // First-match-wins keys and helper names: only a transport uses them, and it is refused rather than half-guarded.
    for (const key of ["core.gitproxy", "remote.origin.uploadpack", "remote.origin.receivepack", "remote.origin.vcs"]) {
      const entries = parseConfigList(list(["local", key, "evil"]));
      expect(() => configOverrides(entries, "remote")).toThrow(
        expect.objectContaining({ code: "git_failed", message: expect.stringContaining(key) }),
      );
      expect(configOverrides(entries, "read")).toEqual([]);
      expect(configOverrides(entries, "write")).toEqual([]);
    }
    expect(() => configOverrides(parseConfigList(list(["local", "filter.a=b.clean", "evil"])), "read")).toThrow(
      expect.objectContaining({ code: "git_failed" }),
    );
  });
});

describe("git's environment", () => {
  it("keeps what git needs and drops the user's secrets and anything else", () => {
    const env = gitEnvironment(
      {
        PATH: "/usr/bin",
        HOME: "/home/u",
        SSH_AUTH_SOCK: "/tmp/agent",
        LC_CTYPE: "C.UTF-8",
        GIT_CONFIG_GLOBAL: "/home/u/.gitconfig",
        GIT_DIR: "/elsewhere/.git",
        GITHUB_TOKEN: "ghp_x",
        AWS_SECRET_ACCESS_KEY: "x",
        GIT_TOKEN: "x",
        NODE_OPTIONS: "--require /tmp/x.js",
        CLAUDE_IDE_BRIDGE_TOKEN: "x",
        EDITOR: "vim",
      },
      { passEnv: [] },
    );
    expect(Object.keys(env).sort()).toEqual(
      [
        "GCM_INTERACTIVE",
        "GIT_ASKPASS",
        "GIT_CONFIG_GLOBAL",
        "GIT_EDITOR",
        "GIT_MERGE_AUTOEDIT",
        "GIT_OPTIONAL_LOCKS",
        "GIT_PAGER",
        "GIT_SEQUENCE_EDITOR",
        "GIT_TERMINAL_PROMPT",
        "HOME",
        "LC_ALL",
        "LC_CTYPE",
        "PAGER",
        "PATH",
        "SSH_ASKPASS",
        "SSH_AUTH_SOCK",
      ].sort(),
    );
    expect(env.GIT_EDITOR).toBe("true");
    // --pass-env gives a named variable back (a token a credential helper reads).
    expect(gitEnvironment({ PATH: "/bin", GH_TOKEN: "x" }, { passEnv: ["GH_TOKEN"] }).GH_TOKEN).toBe("x");
  });
});

describe("runCommand's git rules", () => {
  const refusal = (...args: string[]) => gitCommandRefusal(readGitCommandLine(args));

  it.each([
    ["apply", "--unsafe-paths", "p.patch"],
    ["apply", "--directory=../../x", "p.patch"],
    ["apply", "--directory", "/tmp/x", "p.patch"],
    ["am", "--directory=a/../../b", "m.mbox"],
    ["config", "--global", "--list"],
    ["config", "--system", "-l"],
    ["config", "--list"],
    ["config", "--get", "user.email"],
    ["config", "--local", "--includes", "--list"],
    ["credential", "fill"],
    ["credential-store", "get"],
    ["credential-cache", "exit"],
    ["push", "origin", "main"],
    ["send-pack", "../r.git", "main"],
    ["help", "log"],
    ["log", "--help"],
    ["--help"],
    ["-p", "log"],
    ["init", "--template=./t", "x"],
    ["clone", "--template", "t", "a", "b"],
    ["maintenance", "start"],
    ["maintenance", "register"],
    ["var", "-l"],
    ["imap-send"],
    ["fsmonitor--daemon", "start"],
  ])("refuses git %s", (...args) => {
    expect(refusal(...args)).toBeDefined();
  });

  it.each([
    ["status", "--short"],
    ["log", "-p", "-n", "3"],
    ["apply", "--check", "p.patch"],
    ["apply", "--directory=sub/dir", "p.patch"],
    ["config", "--local", "--list"],
    ["config", "--get", "--local", "user.name"],
    ["config", "--file", "cfg", "--list"],
    ["maintenance", "run"],
    ["init", "x"],
    ["commit", "-m", "a"],
    ["-C", "sub", "status"],
    ["stash", "list"],
  ])("lets git %s run", (...args) => {
    expect(refusal(...args)).toBeUndefined();
  });

  it("reads the access off the subcommand and the options that choose the repository", () => {
    expect(readGitCommandLine(["-C", "sub", "--git-dir=x", "status", "-s"])).toEqual({
      global: ["-C", "sub", "--git-dir=x"],
      sub: "status",
      rest: ["-s"],
      access: "read",
    });
    expect(readGitCommandLine(["fetch", "origin"]).access).toBe("remote");
    expect(readGitCommandLine(["commit", "-m", "x"]).access).toBe("write");
  });

  it("names every operand and option value as a path to check", () => {
    expect(pathCandidates(["diff", "--no-index", "a", "link/x", "-Fmsg", "--output=o", "--", "p"])).toEqual([
      "diff",
      "a",
      "link/x",
      "msg",
      "o",
      "p",
    ]);
  });
});
