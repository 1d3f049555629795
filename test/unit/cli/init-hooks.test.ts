// `init --hooks` on the text of .claude/settings.json: one notify hook per Claude Code event, the
// user's own hooks and settings kept, a second run changing nothing, a moved command updated in
// place, and a file that is not JSON refused.
import { describe, expect, it } from "vitest";
import { HOOKED_EVENTS, notifyLine, updateSettingsHooks } from "../../../src/cli/init-hooks.ts";

const self = { command: "node", args: ["/opt/my bridge/bin/claude-ide-bridge.js"] };
const line = (event: string) => notifyLine(self, event);

describe("init --hooks", () => {
  it("adds a notify hook per event, keeps the user's hooks and settings, and is idempotent", () => {
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
    const moved = updateSettingsHooks(JSON.stringify(edited), (event) => notifyLine({ command: "claude-ide-bridge", args: [] }, event));
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
});
