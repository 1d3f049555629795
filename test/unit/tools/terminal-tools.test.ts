// The terminal toolset and runInTerminal's VS Code path: what the bridge checks before anything
// reaches a terminal (jailed cwd, refused environment variables, runCommand's allowlist, git), the
// command line it builds, the answers it prints from VS Code's, and waiting on output with the
// bridge's regex engine. An in-process fake extension stands in for VS Code (a few terminals and
// their output); the real one runs in test/e2e/vscode-ide.test.ts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { terminalText } from "../../../src/extension/ansi.ts";
import type { ParamsOf, ResultOf } from "../../../src/extension/protocol.ts";
import type { WireTerminal } from "../../../src/extension/protocol-ide.ts";
import { posixQuote } from "../../../src/services/terminal/shell-quote.ts";
import { tail, terminalEnvProblem } from "../../../src/services/terminal/vscode-terminals.ts";
import { connectedExtension, extensionClient, FakeExtension } from "../../helpers/fake-extension.ts";
import { tempWorkspaces, type TempWorkspaces } from "../../helpers/temp-workspace.ts";
import { dispatcher } from "../../helpers/tool-dispatch.ts";

let spaces: TempWorkspaces;
let root: string;
beforeAll(async () => {
  spaces = await tempWorkspaces("terminal-tools-");
  root = await spaces.make("ws", { "package.json": "{}", "web/index.ts": "" });
});
afterAll(() => spaces.remove());

/** A VS Code with terminals whose output the test feeds; long polls wait for it as the extension does. */
function fakeVsCode(opts: { shellIntegration?: boolean; run?: (line: string) => ResultOf<"extension/terminalCommand"> } = {}) {
  const terminals: WireTerminal[] = [
    { id: "t1", name: "bash", shell: "bash", shellIntegration: opts.shellIntegration ?? true, createdByBridge: false, active: true },
  ];
  let buffer = "";
  let wake: (() => void) | undefined;
  const created: ParamsOf<"extension/createTerminal">[] = [];
  const commands: ParamsOf<"extension/terminalCommand">[] = [];
  const fake = connectedExtension({
    "extension/listTerminals": () => ({ terminals }),
    "extension/createTerminal": (p) => {
      created.push(p);
      const terminal = { id: `t${terminals.length + 1}`, name: p.name, shellIntegration: true, createdByBridge: true, active: false };
      terminals.push(terminal);
      return { terminal };
    },
    "extension/terminalCommand": (p) => {
      commands.push(p);
      return opts.run?.(p.commandLine) ?? { mode: "shellIntegration", finished: true, exitCode: 0, output: "done\n", since: 0 };
    },
    "extension/terminalOutput": async (p) => {
      const since = p.since ?? 0;
      if (since >= buffer.length && (p.waitMs ?? 0) > 0) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, p.waitMs);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
      return {
        text: buffer.slice(since),
        next: buffer.length,
        dropped: false,
        shellIntegration: opts.shellIntegration ?? true,
        exited: false,
      };
    },
  });
  const print = (text: string) => {
    buffer += text;
    wake?.();
  };
  return { fake, created, commands, print };
}

describe("terminals through VS Code", () => {
  it("createTerminal: a jailed directory, the --pass-env names, and no variable that changes what runs", async () => {
    const vs = fakeVsCode();
    const d = await dispatcher(root, { extension: vs.fake.client, settings: { passEnv: ["NPM_TOKEN"] } });
    expect(await d.data("createTerminal", { cwd: "web", env: { PORT: "3000" } })).toEqual({
      id: "t2",
      name: "Claude",
      shellIntegration: true,
      createdByBridge: true,
    });
    expect(vs.created).toEqual([{ name: "Claude", cwd: `${root}/web`, env: { PORT: "3000" }, passEnv: ["NPM_TOKEN"], show: true }]);
    expect((await d.failure("createTerminal", { cwd: "../elsewhere" })).code).toBe("outside_workspace");
    expect((await d.failure("createTerminal", { cwd: "package.json" })).code).toBe("not_a_directory");
    const env = await d.failure("createTerminal", { env: { NODE_OPTIONS: "--require ./x.js" } });
    expect(env).toMatchObject({ code: "invalid_arguments", error: expect.stringMatching(/NODE_OPTIONS changes which programs run/) });
    expect(vs.created).toHaveLength(1);
  });

  it("sendTerminalCommand: runCommand's checks first, then one quoted command line; the exit code and output", async () => {
    const vs = fakeVsCode({ run: () => ({ mode: "shellIntegration", finished: true, exitCode: 2, output: "\nfailed: 1\n", since: 40 }) });
    const d = await dispatcher(root, { extension: vs.fake.client });
    const out = await d.text("sendTerminalCommand", { terminal: "bash", command: "npm", args: ["run", "it's"], cwd: "web" });
    expect(vs.commands).toEqual([{ id: "t1", commandLine: `cd ${root}/web && npm run 'it'\\''s'`, waitMs: 30_000, integrationWaitMs: 0 }]);
    expect(out).toBe(`$ cd ${root}/web && npm run 'it'\\''s'\nexit 2 · VS Code terminal t1 "bash"\n\n\nfailed: 1`);
    for (const [command, args] of [
      ["python3", ["-c", "print(1)"]],
      ["git", ["status"]],
      ["npm", ["test", "--prefix", "/etc"]],
    ] as const) {
      expect((await d.failure("sendTerminalCommand", { terminal: "t1", command, args })).code).toBe("command_refused");
    }
    expect(vs.commands).toHaveLength(1);
    expect(await d.failure("sendTerminalCommand", { terminal: "nope", command: "npm", args: ["test"] })).toMatchObject({
      code: "terminal_not_found",
      error: expect.stringContaining('t1 "bash"'),
    });
  });

  it("a shell without shell integration: the command is typed and the answer says nothing can be read", async () => {
    const vs = fakeVsCode({ shellIntegration: false, run: () => ({ mode: "sendText", finished: false, since: 0 }) });
    const d = await dispatcher(root, { extension: vs.fake.client });
    expect(await d.text("sendTerminalCommand", { terminal: "t1", command: "npm", args: ["test"] })).toMatch(
      /^\$ npm test\ntyped into VS Code terminal t1 "bash": its shell has no shell integration, so there is no exit code/,
    );
    expect(vs.commands[0]?.integrationWaitMs).toBeGreaterThan(0);
    expect(await d.text("getTerminalOutput", { terminal: "t1" })).toMatch(
      /nothing to read: this terminal's shell has no shell integration/,
    );
  });

  it("waitForTerminalOutput matches a line printed after the call, across reads, on the linear regex engine", async () => {
    const vs = fakeVsCode();
    const d = await dispatcher(root, { extension: vs.fake.client, settings: { timeoutMs: 20_000 } });
    vs.print("> vite\n\n  compiling...\n");
    const waiting = d.text("waitForTerminalOutput", { terminal: "t1", pattern: "ready (in|on) port \\d+", timeoutMs: 15_000 });
    // Printed in two pieces, the second finishing the line (whether the tool reads once or twice).
    vs.print("  ready on po");
    vs.print("rt 5173\n  more\n");
    expect(await waiting).toBe(
      [
        'Matched in terminal t1 "bash" (read up to offset 51):',
        "  ready on port 5173",
        "",
        "--- the lines before ---",
        "> vite",
        "",
        "  compiling...",
      ].join("\n"),
    );
    const timedOut = await d.failure("waitForTerminalOutput", {
      terminal: "t1",
      pattern: "never",
      literal: true,
      since: 51,
      timeoutMs: 300,
    });
    expect(timedOut).toMatchObject({ code: "timeout", error: expect.stringMatching(/nothing matched within 300 ms/) });
    expect(timedOut.suggestion).toMatch(/since 51/);
    expect((await d.failure("waitForTerminalOutput", { terminal: "t1", pattern: "a{1000}{1000}" })).code).toBe("invalid_arguments");
  });

  it("runInTerminal with VS Code: one run in a new Claude terminal, never a second headless one", async () => {
    const vs = fakeVsCode({ run: () => ({ mode: "shellIntegration", finished: true, exitCode: 0, output: "ok\n", since: 0 }) });
    const d = await dispatcher(root, { extension: vs.fake.client });
    const result = await d.call("runInTerminal", { command: "npm test" });
    expect(result._meta).toEqual({ "claude-ide-bridge/backend": "extension" });
    expect(result.content[0]?.text).toBe('$ npm test\nexit 0 · VS Code terminal t2 "Claude"\n\nok');
    expect(vs.created.map((c) => c.name)).toEqual(["Claude"]);
    expect(vs.commands.map((c) => c.commandLine)).toEqual(["npm test"]);
    // Refused before any terminal is made.
    expect((await d.failure("runInTerminal", { command: "bash", args: ["-c", "id"] })).code).toBe("command_refused");
    expect(vs.created).toHaveLength(1);
  });

  it("an extension of protocol 1.1 is told apart: not_supported with the upgrade, nothing sent", async () => {
    const fake = new FakeExtension(extensionClient(), {}).connect({ protocolVersion: "1.1.0" });
    const d = await dispatcher(root, { extension: fake.client });
    const failure = await d.failure("listTerminals", {});
    expect(failure).toMatchObject({
      code: "not_supported",
      error: expect.stringMatching(/speaks protocol 1\.1\.0; listTerminals needs 1\.2\.0/),
    });
    expect(failure.suggestion).toMatch(/install-extension/);
    expect(fake.requests("extension/listTerminals")).toEqual([]);
  });
});

describe("the pieces", () => {
  it("terminal text is what the terminal shows: no colours, titles or marks; spinners overwritten", () => {
    expect(terminalText("\u001b]633;C\u0007\u001b[32mok\u001b[0m\r\nline 2\rline 3\u001b]0;title\u001b\\")).toBe("ok\nline 3");
    expect(terminalText("\u28f9\u001b[1G\u001b[0K\u28f8\u001b[G\u001b[0Kready on port 1\nab\bc")).toBe("ready on port 1\nac");
  });

  it("quotes for a POSIX shell only what needs it", () => {
    expect(["run", "a b", "it's", "$(id)", "x=1"].map(posixQuote)).toEqual(["run", "'a b'", "'it'\\''s'", "'$(id)'", "x=1"]);
  });

  it("refuses variables that change which programs run or what they load", () => {
    for (const name of [
      "PATH",
      "LD_PRELOAD",
      "DYLD_INSERT_LIBRARIES",
      "NODE_OPTIONS",
      "BASH_ENV",
      "GIT_SSH_COMMAND",
      "npm_config_script_shell",
    ])
      expect(terminalEnvProblem(name), name).toBeDefined();
    for (const name of ["PORT", "NODE_ENV", "DEBUG"]) expect(terminalEnvProblem(name), name).toBeUndefined();
    expect(terminalEnvProblem("A B")).toMatch(/not a variable name/);
  });

  it("keeps the end of long output, cut at a line", () => {
    expect(tail("aaaa\nbbbb\ncccc", 7)).toBe("[10 characters before this cut]\ncccc");
  });
});
