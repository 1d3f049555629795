// The bridge reads npm's command word and package arguments as npm does: compared with the
// installed npm's own deref (lib/utils/cmd-list.js) for every command, alias, prefix of them and
// camelCase spelling, and with its own package-argument parser (npm-package-arg) for a table of
// specs. A new npm that adds a command or changes an alias fails here before it can open a gap
// (`npm exe` is `npm exec` by prefix).
import { describe, expect, it } from "vitest";
import { NPM_COMMAND_WORDS, npmCommand } from "../../../src/security/commands/rules/npm-commands.ts";
import { npmSpec } from "../../../src/security/commands/rules/npm-specs.ts";
import { requireFromNpm } from "../../helpers/installed-npm.ts";

const cmdList = requireFromNpm<{ commands: string[]; aliases: Record<string, string>; deref: (c: string) => string | undefined }>(
  "./lib/utils/cmd-list.js",
);
const npa = requireFromNpm<(arg: string, where?: string) => { type: string }>("npm-package-arg");

describe("npm's command word", () => {
  it("knows exactly npm's commands and aliases", () => {
    expect([...NPM_COMMAND_WORDS].sort()).toEqual([...cmdList.commands, ...Object.keys(cmdList.aliases)].sort());
  });

  it("resolves every command, alias, prefix and camelCase spelling as npm's deref does", () => {
    const words = new Set<string>();
    for (const name of NPM_COMMAND_WORDS) {
      for (let i = 1; i <= name.length; i++) words.add(name.slice(0, i));
      words.add(name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase()));
      words.add(`${name}x`);
    }
    const differ = [...words].filter((w) => npmCommand(w) !== cmdList.deref(w)).map((w) => `${w}: ${npmCommand(w)} vs ${cmdList.deref(w)}`);
    expect(differ).toEqual([]);
    expect(words.size).toBeGreaterThan(500);
    expect(npmCommand("exe")).toBe("exec");
    expect(npmCommand("explo")).toBe("explore");
  });
});

describe("npm's package arguments", () => {
  const KIND: Record<string, string> = {
    version: "registry",
    range: "registry",
    tag: "registry",
    alias: "registry",
    git: "git",
    remote: "remote",
    file: "path",
    directory: "path",
  };
  const SPECS = [
    "lodash",
    "lodash@4",
    "lodash@^4.17.0",
    "lodash@latest",
    "@types/node",
    "@types/node@20",
    "my-alias@npm:lodash@4",
    "git+file:///outside/repo",
    "git+https://example.com/x.git",
    "git+ssh://git@example.com/x.git",
    "git://example.com/x.git",
    "git@example.com:user/repo.git",
    "github:user/repo",
    "gitlab:user/repo",
    "bitbucket:user/repo",
    "gist:abc123",
    "user/repo",
    "user/repo#main",
    "https://github.com/user/repo",
    "name@github:user/repo",
    "name@user/repo",
    "name@git+https://example.com/x.git",
    "http://127.0.0.1:8080/x.tgz",
    "https://example.com/pkg.tgz",
    "name@http://127.0.0.1/x.tgz",
    "file:../outside",
    "file:///outside/pkg",
    "../outside",
    "./local",
    "/abs/pkg",
    "~/pkg",
    "x.tgz",
    "name@file:../outside",
    "name@../outside",
    "name@./vendored",
  ];

  it.each(SPECS)("reads %s as npm does", (spec) => {
    expect(npmSpec(spec).kind).toBe(KIND[npa(spec, "/ws").type]);
  });
});
