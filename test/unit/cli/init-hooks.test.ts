// `init --hooks` on the text of .claude/settings.json: one notify hook per Claude Code event, the
// user's own hooks and settings kept, a second run changing nothing, a moved command updated in
// place, and a file that is not JSON refused.
import { describe, expect, it } from "vitest";
import { hooksCommand } from "../../../src/cli/init-hooks-command.ts";
import { HOOKED_EVENTS, updateSettingsHooks } from "../../../src/cli/init-hooks.ts";

const self = { command: "node", args: ["/opt/my bridge/bin/claude-ide-bridge.js"] };
/** A project whose node_modules holds `installed` (or nothing). */
const project = (installed: string[] = []) => ({
  stat: async (path: string) => {
    if (!installed.includes(path)) throw Object.assign(new Error("no such file"), { code: "ENOENT" });
    return {};
  },
});
const commandFor = (opts: { self?: { command: string; args: string[] }; installed?: string[]; override?: string; portable?: boolean }) =>
  hooksCommand(
    { self: opts.self ?? self, runtime: { fs: project(opts.installed) } },
    { dir: "/proj", ...(opts.override === undefined ? {} : { override: opts.override }), ...(opts.portable ? { portable: true } : {}) },
  );
const line = (event: string) => `node '/opt/my bridge/bin/claude-ide-bridge.js' notify ${event}`;

describe("init --hooks", () => {
  it("adds a notify hook per event, keeps the user's hooks and settings, and is idempotent", async () => {
    expect((await commandFor({})).line("CwdChanged")).toBe(line("CwdChanged"));
    const user = {
      permissions: { allow: ["Bash(npm test)"] },
      hooks: {
        PostToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "echo ran >> log.txt" }] }],
        Stop: [{ hooks: [{ type: "command", command: "say done" }] }],
      },
    };
    const first = updateSettingsHooks(JSON.stringify(user, null, 4), line);
    if ("error" in first) throw new Error(first.error);
    expect(first.added).toEqual(HOOKED_EVENTS.map((e) => e.event));
    const doc = JSON.parse(first.text);
    expect(doc.permissions).toEqual(user.permissions);
    expect(doc.hooks.Stop).toEqual(user.hooks.Stop);
    expect(doc.hooks.PostToolUse).toEqual([
      user.hooks.PostToolUse[0],
      {
        matcher: "Write|Edit|MultiEdit|NotebookEdit",
        hooks: [{ type: "command", command: "node '/opt/my bridge/bin/claude-ide-bridge.js' notify PostToolUse", timeout: 10 }],
      },
    ]);
    expect(doc.hooks.CwdChanged).toEqual([
      { hooks: [{ type: "command", command: "node '/opt/my bridge/bin/claude-ide-bridge.js' notify CwdChanged", timeout: 10 }] },
    ]);
    expect(first.text).toMatch(/^\{\n {4}"permissions"/);

    const second = updateSettingsHooks(first.text, line);
    expect(second).toEqual({ text: first.text, added: [], updated: [] });

    // The bridge moved: our entries are updated where they are, with the user's edits to them (timeout) kept.
    const edited = JSON.parse(first.text);
    edited.hooks.CwdChanged[0].hooks[0].timeout = 30;
    const installed = await commandFor({ self: { command: "claude-ide-bridge", args: [] } });
    const moved = updateSettingsHooks(JSON.stringify(edited), installed.line);
    if ("error" in moved) throw new Error(moved.error);
    expect(moved.added).toEqual([]);
    expect(moved.updated).toHaveLength(HOOKED_EVENTS.length);
    expect(JSON.parse(moved.text).hooks.CwdChanged).toEqual([
      { hooks: [{ type: "command", command: "claude-ide-bridge notify CwdChanged", timeout: 30 }] },
    ]);
  });

  it("writes a new file, and refuses to touch one that is not JSON or has odd hooks", () => {
    const created = updateSettingsHooks(undefined, line);
    if ("error" in created) throw new Error(created.error);
    expect(Object.keys(JSON.parse(created.text).hooks)).toEqual(HOOKED_EVENTS.map((e) => e.event));
    expect(updateSettingsHooks("{ // comment\n}", line)).toMatchObject({ error: expect.stringMatching(/^not valid JSON/) });
    expect(updateSettingsHooks('{"hooks": []}', line)).toEqual({ error: '"hooks" is not an object' });
    expect(updateSettingsHooks('{"hooks": {"CwdChanged": {}}}', line)).toEqual({ error: '"hooks.CwdChanged" is not an array' });
  });

  it("writes a form a teammate can run, and says which and why", async () => {
    // A checkout: its absolute path, said to work only here.
    const machine = await commandFor({});
    expect(machine).toMatchObject({ form: "machine", why: expect.stringContaining("works only on this machine") });
    // --portable from a checkout: the checkout through the variable each user sets, expanded by the hook's shell.
    const portable = await commandFor({ portable: true });
    expect(portable.line("PreCompact")).toBe(`node "$CLAUDE_IDE_BRIDGE_HOME/bin/claude-ide-bridge.js" notify PreCompact`);
    expect(portable.why).toContain("export CLAUDE_IDE_BRIDGE_HOME=/opt/my bridge");
    // Installed in the project: its own bin through the directory Claude Code names, whatever runs init.
    const inProject = await commandFor({ installed: ["/proj/node_modules/claude-ide-bridge/package.json"], portable: true });
    expect(inProject.form).toBe("project");
    expect(inProject.line("PostToolUse")).toBe(`"$CLAUDE_PROJECT_DIR/node_modules/.bin/claude-ide-bridge" notify PostToolUse`);
    // --command wins, as given.
    const given = await commandFor({
      override: "npx --no claude-ide-bridge",
      installed: ["/proj/node_modules/claude-ide-bridge/package.json"],
    });
    expect(given).toMatchObject({ form: "command" });
    expect(given.line("CwdChanged")).toBe("npx --no claude-ide-bridge notify CwdChanged");
    // An installed copy's launcher names no path of this machine.
    expect(await commandFor({ self: { command: "npx", args: ["-y", "claude-ide-bridge"] } })).toMatchObject({ form: "installed" });
    // Each form is found again by a second run, so the hooks are updated in place rather than added twice.
    for (const form of [machine, portable, inProject, given]) {
      const first = updateSettingsHooks(undefined, form.line);
      if ("error" in first) throw new Error(first.error);
      expect(updateSettingsHooks(first.text, form.line)).toMatchObject({ added: [], updated: [] });
      const other = updateSettingsHooks(first.text, machine.line);
      if ("error" in other) throw new Error(other.error);
      if (form !== machine) expect(other).toMatchObject({ added: [], updated: HOOKED_EVENTS.map((e) => e.event) });
    }
  });
});
