// The environment a child process gets. Never what only the bridge may know (its auth token, the
// config path that may hold one). And for what the model or the project's code chooses to run
// (runCommand, test runners, checkers, formatters: ctx.exec.runAllowed and runToolchain), none of
// the user's secrets either: an npm script the model just wrote can print its environment, so a
// token there is a token in the model's context. Declared tools (git, gh) keep the user's
// credentials: gh needs GH_TOKEN, and what they run is fixed by the bridge. --pass-env NAME gives a
// named variable back to every child (an NPM_TOKEN that `npm ci` reads through .npmrc).
const BRIDGE_SECRETS = ["CLAUDE_IDE_BRIDGE_TOKEN", "CLAUDE_IDE_BRIDGE_CONFIG"];

/** Names that hold credentials by convention: *_TOKEN, *_SECRET*, *PASSWORD, *_API_KEY, *_KEY... */
const SECRET_NAME =
  /(^|_)(TOKEN|SECRET|PASSWORD|PASSWD|PASSPHRASE|CREDENTIALS?|API_?KEY|ACCESS_KEY|PRIVATE_KEY|AUTH_KEY)($|_)|(^|_)KEY$|_AUTH$|_AUTHTOKEN$/i;
/** A URL with a password in it (DATABASE_URL=postgres://user:pass@host/db). */
const URL_WITH_PASSWORD = /^[a-z][a-z0-9+.-]*:\/\/[^/\s:@]*:[^/\s@]+@/i;

export interface ChildEnvOptions {
  /** Drop the user's secrets too, not only the bridge's (what the model or the project chose to run). */
  dropSecrets: boolean;
  /** --pass-env: names kept even when they look like secrets (never the bridge's own). */
  passEnv?: readonly string[];
}

/** Whether a variable looks like a credential (by its name, or a URL value with a password). */
function looksSecret(name: string, value: string): boolean {
  return SECRET_NAME.test(name) || URL_WITH_PASSWORD.test(value);
}

export function childEnvironment(
  base: Readonly<Record<string, string | undefined>>,
  extra: Readonly<Record<string, string>> | undefined,
  opts: ChildEnvOptions = { dropSecrets: false },
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(base)) {
    if (value === undefined || BRIDGE_SECRETS.includes(key)) continue;
    if (opts.dropSecrets && looksSecret(key, value) && opts.passEnv?.includes(key) !== true) continue;
    env[key] = value;
  }
  return { ...env, ...extra };
}
