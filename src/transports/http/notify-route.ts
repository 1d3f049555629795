// POST /notify: Claude Code's own events (CwdChanged, PreCompact, PostCompact, InstructionsLoaded,
// TaskCreated, PermissionDenied, FileChanged, a file-writing PostToolUse), posted by
// `claude-ide-bridge notify` from Claude Code's command hooks, for the automation hooks. The bridge
// token is required as on /mcp (the Host/Origin checks have run before); a body over 64 KB is a
// 413 without being read further; an unknown event or a bad field is a 400 naming it. The answer
// says what each hook decided, so a hook author can see why nothing ran.
import type { Handler } from "hono";
import { bearerToken, tokensEqual } from "../../security/auth/tokens.ts";
import { BodyTooLarge, readBodyLimited } from "./responses.ts";

/** A hook input with a whole compact summary fits; a file's content never travels here. */
export const NOTIFY_MAX_BYTES = 64 * 1024;

type NotifyAnswer = { ok: true; event: string; decisions: readonly unknown[] } | { ok: false; message: string };

export function notifyHandler(opts: { token: string; notify(body: unknown): NotifyAnswer }): Handler {
  return async (c) => {
    if (!tokensEqual(bearerToken(c.req.header("authorization")), opts.token)) {
      return c.json({ error: "Unauthorized: send Authorization: Bearer <token> (claude-ide-bridge print-token)" }, 401, {
        "www-authenticate": `Bearer realm="claude-ide-bridge"`,
      });
    }
    let text: string;
    try {
      text = await readBodyLimited(c.req.raw, NOTIFY_MAX_BYTES);
    } catch (err) {
      if (err instanceof BodyTooLarge) return c.json({ error: `the body is over ${NOTIFY_MAX_BYTES} bytes` }, 413);
      throw err;
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return c.json({ error: 'the body is not JSON: send {"event": "<Claude Code hook event>", ...the hook\'s input}' }, 400);
    }
    const answer = opts.notify(body);
    if (!answer.ok) return c.json({ error: answer.message }, 400);
    return c.json({ event: answer.event, decisions: answer.decisions }, 202);
  };
}
