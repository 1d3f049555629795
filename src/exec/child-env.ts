// The environment a child process gets: the bridge's own, without what only the bridge may know
// (its auth token, the config path that may hold one), plus what the tool adds.
const SECRET_KEYS = ["CLAUDE_IDE_BRIDGE_TOKEN", "CLAUDE_IDE_BRIDGE_CONFIG"];

export function childEnvironment(base: Readonly<Record<string, string | undefined>>, extra: Readonly<Record<string, string>> | undefined): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(base)) if (value !== undefined && !SECRET_KEYS.includes(key)) env[key] = value;
  return { ...env, ...extra };
}
