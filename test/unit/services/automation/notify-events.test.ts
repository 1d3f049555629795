// /notify in process: the route's token, size and JSON checks (a tiny Hono app around the real
// handler), and the hook inputs of Claude Code turned into automation events: unknown events and
// bad fields refused with a message naming them, paths made relative to the workspace, a saved
// .yaml feeding onRecipeSave too, and every value fenced.
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { parseNotify } from "../../../../src/services/automation/notify-events.ts";
import { NOTIFY_MAX_BYTES, notifyHandler } from "../../../../src/transports/http/notify-route.ts";

const TOKEN = "notify-test-token-0123456789";

function app() {
  const received: unknown[] = [];
  const hono = new Hono();
  hono.post(
    "/notify",
    notifyHandler({
      token: TOKEN,
      notify: (body) => {
        received.push(body);
        const parsed = parseNotify(body, { root: "/ws" });
        return parsed.ok ? { ok: true, event: parsed.event, decisions: [] } : parsed;
      },
    }),
  );
  const post = (body: string, headers: Record<string, string> = { authorization: `Bearer ${TOKEN}` }) =>
    hono.request("/notify", { method: "POST", body, headers: { "content-type": "application/json", ...headers } });
  return { post, received };
}

describe("POST /notify", () => {
  it("takes the bridge token only, refuses oversized and non-JSON bodies, and names an unknown event", async () => {
    const t = app();
    const ok = JSON.stringify({ event: "CwdChanged", new_cwd: "/ws/a" });
    expect((await t.post(ok, {})).status).toBe(401);
    expect((await t.post(ok, { authorization: "Bearer wrong-token-0123456789" })).status).toBe(401);
    const big = await t.post(JSON.stringify({ event: "PostCompact", compact_summary: "x".repeat(NOTIFY_MAX_BYTES) }));
    expect(big.status).toBe(413);
    expect((await t.post("{not json")).status).toBe(400);
    const unknown = await t.post(JSON.stringify({ event: "Stop" }));
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toEqual({
      error:
        'unknown event "Stop": "event" must be one of CwdChanged, PreCompact, PostCompact, InstructionsLoaded, TaskCreated, PermissionDenied, FileChanged, PostToolUse',
    });
    const accepted = await t.post(ok);
    expect(accepted.status).toBe(202);
    expect(await accepted.json()).toEqual({ event: "CwdChanged", decisions: [] });
    expect(t.received).toHaveLength(2);
  });
});

describe("Claude Code's hook inputs as automation events", () => {
  it("names the missing or mistyped field", () => {
    expect(parseNotify({ event: "TaskCreated", task_id: "7" }, { root: "/ws" })).toEqual({
      ok: false,
      message: "TaskCreated.task_subject: missing",
    });
    expect(parseNotify({ event: "PostToolUse", tool_name: "Bash", tool_input: {} }, { root: "/ws" })).toMatchObject({
      ok: false,
      message: "PostToolUse.tool_name: tool_name must be one of Write, Edit, MultiEdit, NotebookEdit (a file save)",
    });
    expect(parseNotify({ event: "CwdChanged", new_cwd: "/x", bridge_task_id: "../../etc" }, { root: "/ws" })).toMatchObject({
      ok: false,
      message: "CwdChanged.bridge_task_id: a bridge task id (task-xxxxxxxx)",
    });
    expect(parseNotify([1], { root: "/ws" })).toEqual({ ok: false, message: "the body must be a JSON object" });
  });

  it("maps each event to its hook, with paths relative to the workspace and every value fenced", () => {
    const saved = parseNotify(
      {
        event: "PostToolUse",
        hook_event_name: "PostToolUse",
        session_id: "s-1",
        tool_name: "Write",
        tool_input: { file_path: "/ws/recipes/build.yaml", content: "..." },
      },
      { root: "/ws" },
    );
    expect(saved).toMatchObject({
      ok: true,
      event: "PostToolUse",
      events: [
        { hook: "onFileSave", file: "recipes/build.yaml", origin: { claudeSessionId: "s-1" } },
        { hook: "onRecipeSave", file: "recipes/build.yaml" },
      ],
    });
    const outside = parseNotify({ event: "FileChanged", file_path: "/etc/hosts", file_event: "add" }, { root: "/ws" });
    expect(outside).toMatchObject({
      ok: true,
      events: [{ hook: "onFileChanged", file: "/etc/hosts", values: { change: { text: "add" } } }],
    });
    const compact = parseNotify({ event: "PreCompact", trigger: "auto", custom_instructions: null }, { root: "/ws" });
    expect(compact).toMatchObject({ ok: true, events: [{ hook: "onCompaction", phase: "pre" }] });
    const denied = parseNotify(
      { event: "PermissionDenied", tool_name: "Bash", tool_input: { command: "rm -rf /" }, reason: "auto mode" },
      { root: "/ws" },
    );
    expect(denied).toMatchObject({
      ok: true,
      events: [{ hook: "onPermissionDenied", values: { input: { text: '{"command":"rm -rf /"}', trusted: false } } }],
    });
    for (const result of [saved, outside, compact, denied])
      if (result.ok) for (const e of result.events) for (const value of Object.values(e.values)) expect(value.trusted).toBe(false);
  });
});
