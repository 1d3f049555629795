// The environment for running the real Claude Code CLI in tests: a throwaway HOME and none of
// the caller's Claude settings, telemetry or update checks; loopback never goes through a proxy.
const CALLER_SETTINGS = /^(CLAUDE|ANTHROPIC_|MCP_|XDG_CONFIG_HOME$|XDG_DATA_HOME$|XDG_STATE_HOME$|XDG_CACHE_HOME$)/;

export function claudeEnv(home: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (!CALLER_SETTINGS.test(k)) env[k] = v;
  }
  return {
    ...env,
    HOME: home,
    NO_PROXY: "127.0.0.1,localhost",
    no_proxy: "127.0.0.1,localhost",
    DISABLE_AUTOUPDATER: "1",
    DISABLE_TELEMETRY: "1",
    DISABLE_ERROR_REPORTING: "1",
  };
}
