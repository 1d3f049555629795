// The environment the Claude Code subprocess gets: what Claude Code itself needs (its home and
// config, its credentials and model settings, the locale, proxies and CA certificates for reaching
// the API) and nothing else of the user's: a task's prompt comes from the model or from a hook, so
// a token in the environment would be a token one Bash call away from the model's context.
// --pass-env names a variable that should reach it anyway (never one of the bridge's own).
const KEEP_EXACT = new Set([
  "PATH",
  "HOME",
  "USER",
  "LOGNAME",
  "SHELL",
  "TERM",
  "LANG",
  "TZ",
  "TMPDIR",
  "NODE_EXTRA_CA_CERTS",
  "SSL_CERT_FILE",
  "SSL_CERT_DIR",
  "HTTP_PROXY",
  "HTTPS_PROXY",
  "NO_PROXY",
  "http_proxy",
  "https_proxy",
  "no_proxy",
  "CLOUD_ML_REGION",
  "DISABLE_AUTOUPDATER",
  "DISABLE_TELEMETRY",
  "DISABLE_ERROR_REPORTING",
  "MCP_CONNECTION_NONBLOCKING",
]);

/** Claude Code's own settings and credentials (ANTHROPIC_API_KEY, CLAUDE_CODE_*, CLAUDE_CONFIG_DIR), the locale, XDG dirs. */
const KEEP_PREFIX = /^(ANTHROPIC_|CLAUDE_CODE_|CLAUDE_CONFIG_DIR$|LC_|XDG_)/;

/** The bridge's own secrets and settings never reach a child. */
const BRIDGE_OWN = /^CLAUDE_IDE_BRIDGE_/;

/** The variable a task's Claude Code carries, so `claude-ide-bridge notify` inside it names its task (the loop guard). */
export const TASK_ID_VARIABLE = "CLAUDE_IDE_BRIDGE_TASK_ID";

export function claudeEnvironment(
  base: Readonly<Record<string, string | undefined>>,
  opts: { passEnv?: readonly string[]; taskId?: string } = {},
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(base)) {
    if (value === undefined || BRIDGE_OWN.test(key)) continue;
    if (KEEP_EXACT.has(key) || KEEP_PREFIX.test(key) || opts.passEnv?.includes(key) === true) env[key] = value;
  }
  if (opts.taskId !== undefined) env[TASK_ID_VARIABLE] = opts.taskId;
  return env;
}
