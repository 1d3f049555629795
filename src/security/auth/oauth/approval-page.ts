// The approval page: a plain HTML form showing who asks (the client's name and id), where the
// answer goes (the redirect URI) and for what (the scopes). Approving takes the bridge token, so
// only the owner grants access. The page cannot be framed (clickjacking), loads nothing, runs no
// script, and the form is tied to this browser by a cookie (CSRF).
import type { PendingApproval } from "./authorization-requests.ts";
import { READ_SCOPE, WRITE_SCOPE } from "./scopes.ts";

const SCOPE_WORDS: Readonly<Record<string, string>> = {
  [READ_SCOPE]: "read: list and call the read-only tools (read files, search, diagnostics, git status...)",
  [WRITE_SCOPE]: "write: every tool, including those that edit files, run commands and commit",
};

/** The cookie carrying a pending approval's CSRF value (one per approval, so two tabs do not clash). */
export function csrfCookieName(approvalId: string): string {
  return `__Host-bridge-approval-${approvalId}`;
}

export function approvalPage(
  approval: PendingApproval,
  opts: { action: string; issuer: string; problem?: string; status?: number },
): Response {
  const client = approval.client;
  const name = client.clientName ?? "(the client gave no name)";
  const scopes = approval.scopes
    .map(
      (s) =>
        `<label><input type="checkbox" name="scope" value="${esc(s)}" checked> <code>${esc(s)}</code> &mdash; ${esc(SCOPE_WORDS[s] ?? s)}</label>`,
    )
    .join("<br>\n");
  const problem = opts.problem === undefined ? "" : `<p class="problem" role="alert">${esc(opts.problem)}</p>`;
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>Allow access to claude-ide-bridge?</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:44em;margin:2em auto;padding:0 1em}code{word-break:break-all}
.problem{color:#a00;font-weight:600}dt{font-weight:600;margin-top:.6em}button{font-size:1em;margin-right:1em;padding:.3em 1em}</style>
</head><body>
<h1>Allow access to this workspace?</h1>
<p><strong>${esc(name)}</strong> asks for access to the IDE bridge at <code>${esc(opts.issuer)}</code>.</p>
<dl>
<dt>Client</dt><dd>${esc(name)} <br><code>${esc(client.clientId)}</code> (${client.kind === "registered" ? "registered here" : "metadata document"})</dd>
<dt>The answer goes to</dt><dd><code>${esc(approval.redirectUri)}</code></dd>
<dt>Access asked for</dt><dd>${scopes}</dd>
</dl>
${problem}
<form method="post" action="${esc(opts.action)}">
<input type="hidden" name="request" value="${esc(approval.id)}">
<input type="hidden" name="csrf" value="${esc(approval.csrf)}">
<p><label>Bridge token (the owner's; <code>claude-ide-bridge print-token</code> prints it):<br>
<input type="password" name="owner_token" autocomplete="off" size="50"></label></p>
<p><button type="submit" name="decision" value="approve">Allow</button>
<button type="submit" name="decision" value="deny">Deny</button></p>
</form>
<p>Only allow clients you started yourself. You can revoke access later with <code>claude-ide-bridge oauth revoke</code>.</p>
</body></html>
`;
  return new Response(html, { status: opts.status ?? 200, headers: pageHeaders(approval.redirectUri) });
}

/** Headers of the approval page: never framed, cached, sniffed or referred from; the form may post here and redirect to the client only. */
export function pageHeaders(redirectUri: string): Record<string, string> {
  const target = URL.canParse(redirectUri) ? new URL(redirectUri).origin : "";
  return {
    "content-type": "text/html; charset=utf-8",
    "cache-control": "no-store",
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "content-security-policy":
      `default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'self' ${target}`.trim(),
  };
}

function esc(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
