// The environment a child process gets. Never what only the bridge may know (its auth token, the
// config path that may hold one). And for what the model or the project's code chooses to run
// (runCommand, test runners, checkers, formatters: ctx.exec.runAllowed and runToolchain), none of
// the user's secrets either (src/security/commands/secret-names.ts says what looks like one): an
// npm script the model just wrote can print its environment, so a token there is a token in the
// model's context. Declared tools (git, gh) keep the user's credentials: gh needs GH_TOKEN, and
// what they run is fixed by the bridge. --pass-env NAME gives a named variable back to every child
// (an NPM_TOKEN that `npm ci` reads through .npmrc).
import { looksSecretName, looksSecretValue } from "./secret-names.ts";

const BRIDGE_SECRETS = ["CLAUDE_IDE_BRIDGE_TOKEN", "CLAUDE_IDE_BRIDGE_CONFIG"];

export interface ChildEnvOptions {
  /** Drop the user's secrets too, not only the bridge's (what the model or the project chose to run). */
  dropSecrets: boolean;
  /** --pass-env: names kept even when they look like secrets (never the bridge's own). */
  passEnv?: readonly string[];
}

export function childEnvironment(
  base: Readonly<Record<string, string | undefined>>,
  extra: Readonly<Record<string, string>> | undefined,
  opts: ChildEnvOptions = { dropSecrets: false },
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(base)) {
    if (value === undefined || BRIDGE_SECRETS.includes(key)) continue;
    if (opts.dropSecrets && (looksSecretName(key) || looksSecretValue(value)) && opts.passEnv?.includes(key) !== true) continue;
    env[key] = value;
  }
  return { ...env, ...extra };
}
