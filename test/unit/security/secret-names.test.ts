// The secret filter of what the model runs (runCommand, runInTerminal, runTests, checkers): every
// name the README's globs describe (*_TOKEN, *SECRET*, *PASSWORD, *_API_KEY, *_KEY, *_CREDENTIALS)
// and the conventions an attack run slipped past it (PGPASSWORD, MYSQL_PWD, GITHUB_PAT, ...) are
// dropped; the variables builds need (PATH, HOME, GOPATH, CARGO_HOME...) are kept; --pass-env gives
// a named one back; the bridge's own token never passes.
import { describe, expect, it } from "vitest";
import { childEnvironment } from "../../../src/security/commands/child-env.ts";
import { looksSecretName, looksSecretValue } from "../../../src/security/commands/secret-names.ts";

const SECRET_NAMES = [
  // the README's globs, as written
  "GITHUB_TOKEN",
  "NPM_TOKEN",
  "GH_TOKEN",
  "CI_JOB_TOKEN",
  "AWS_SESSION_TOKEN",
  "VAULT_TOKEN",
  "APP_SECRETS",
  "CLIENTSECRET",
  "CLIENT_SECRET",
  "SECRET",
  "MY_SECRET_VALUE",
  "AWS_SECRET_ACCESS_KEY",
  "SECRETKEY",
  "PGPASSWORD",
  "PASSWORD",
  "DB_PASSWORD",
  "ADMINPASSWORD",
  "ANTHROPIC_API_KEY",
  "OPENAI_API_KEY",
  "GOOGLE_API_KEY",
  "STRIPE_KEY",
  "SSH_KEY",
  "LICENSE_KEY",
  "GOOGLE_APPLICATION_CREDENTIALS",
  "AZURE_CREDENTIALS",
  "CREDENTIALS",
  // the names an attack run found passing
  "MYSQL_PWD",
  "GITHUB_PAT",
  "STRIPE_SK",
  "SENTRY_DSN",
  "SLACK_WEBHOOK_URL",
  "JWT_SIGNING",
  // compounds and spellings
  "GHTOKEN",
  "ACCESSTOKEN",
  "APIKEY",
  "API_KEYS",
  "ENCRYPTION_KEYS",
  "PRIVATE_KEY",
  "PRIVATEKEY_PEM",
  "GPG_PASSPHRASE",
  "SMTP_PASSWD",
  "REDIS_PASS",
  "DB_PW",
  "DISCORD_WEBHOOK",
  "NPM_CONFIG__AUTH",
  "npm_config__auth",
  "npm_config_//registry.npmjs.org/:_authToken",
  "NPM_CONFIG_OTP",
  "BASIC_AUTH",
  "AUTH_HEADER",
  "HTTP_AUTHORIZATION",
  "SIGNING_KEY",
  "PASSWORD_SALT",
  "SESSION_COOKIE",
  "AZURE_STORAGE_CONNECTION_STRING",
  "SSH_AUTH_SOCK",
  "githubToken",
  "clientSecret",
  "GITLAB_PAT",
  "BEARER",
  "TWILIO_AUTH_TOKEN",
  "DOCKER_AUTH_CONFIG",
  "DATABASE_DSN",
];

const ORDINARY_NAMES = [
  "PATH",
  "HOME",
  "LANG",
  "LANGUAGE",
  "LC_ALL",
  "TERM",
  "COLORTERM",
  "NODE_ENV",
  "NODE_OPTIONS",
  "CI",
  "GOPATH",
  "GOROOT",
  "GOFLAGS",
  "GOPROXY",
  "CARGO_HOME",
  "RUSTUP_HOME",
  "RUST_BACKTRACE",
  "JAVA_HOME",
  "PYTHONPATH",
  "VIRTUAL_ENV",
  "PYENV_ROOT",
  "NVM_DIR",
  "USER",
  "LOGNAME",
  "SHELL",
  "SHLVL",
  "PWD",
  "OLDPWD",
  "TMPDIR",
  "TZ",
  "EDITOR",
  "PAGER",
  "DISPLAY",
  "HOSTNAME",
  "XDG_RUNTIME_DIR",
  "XDG_SESSION_ID",
  "DBUS_SESSION_BUS_ADDRESS",
  "SSH_CONNECTION",
  "SSH_TTY",
  "TOKENIZERS_PARALLELISM",
  "KEYTIMEOUT",
  "GIT_AUTHOR_NAME",
  "GIT_AUTHOR_EMAIL",
  "XAUTHORITY",
  "PASSENGER_APP_ENV",
  "SKIP_PREFLIGHT_CHECK",
  "COMPAT_MODE",
  "NO_COLOR",
  "FORCE_COLOR",
  "DEBIAN_FRONTEND",
  "MANPATH",
  "HTTP_PROXY",
  "npm_config_cache",
  "npm_lifecycle_event",
  "PATHEXT",
];

describe("the secret filter", () => {
  it(`drops all ${SECRET_NAMES.length} secret names and keeps all ${ORDINARY_NAMES.length} ordinary ones`, () => {
    expect(SECRET_NAMES.length + ORDINARY_NAMES.length).toBeGreaterThanOrEqual(60);
    const base = Object.fromEntries([...SECRET_NAMES, ...ORDINARY_NAMES].map((n) => [n, "plain-value"]));
    const env = childEnvironment(base, undefined, { dropSecrets: true });
    const leaked = SECRET_NAMES.filter((n) => n in env);
    const lost = ORDINARY_NAMES.filter((n) => !(n in env));
    expect({ leaked, lost }).toEqual({ leaked: [], lost: [] });
    for (const name of SECRET_NAMES) expect(looksSecretName(name), name).toBe(true);
    for (const name of ORDINARY_NAMES) expect(looksSecretName(name), name).toBe(false);
  });

  it("drops a value shaped like a credential whatever its name", () => {
    const values = {
      DATABASE_URL: "postgres://app:hunter2@db/app",
      MY_VAR: "ghp_abcdefghijklmnopqrstuvwxyz0123456789",
      FINE_GRAINED: "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz",
      ANTHRO: "sk-ant-api03-abcdefghijklmnopqrstuvwxyz",
      SLACK: "xoxb-1234567890-abcdefghij",
      AWS_ID: "AKIAIOSFODNN7EXAMPLE",
      GL: "glpat-abcdefghijklmnopqrst",
      PEM: "-----BEGIN OPENSSH PRIVATE KEY-----\nabc",
      STRIPE: "sk_live_abcdefghijklmnopqrstuv",
      HEADER: "Bearer abcdefghijklmnopqrstuvwxyz",
    };
    const env = childEnvironment({ ...values, PLAIN_URL: "https://example.com/x", SHORT: "sk-1" }, undefined, { dropSecrets: true });
    expect(env).toEqual({ PLAIN_URL: "https://example.com/x", SHORT: "sk-1" });
    for (const value of Object.values(values)) expect(looksSecretValue(value), value).toBe(true);
  });

  it("keeps what --pass-env names, never the bridge's own token, and everything for declared tools", () => {
    const base = { NPM_TOKEN: "n", PGPASSWORD: "p", CLAUDE_IDE_BRIDGE_TOKEN: "b", CLAUDE_IDE_BRIDGE_CONFIG: "/c", PATH: "/bin" };
    expect(childEnvironment(base, undefined, { dropSecrets: true, passEnv: ["NPM_TOKEN", "CLAUDE_IDE_BRIDGE_TOKEN"] })).toEqual({
      NPM_TOKEN: "n",
      PATH: "/bin",
    });
    expect(childEnvironment(base, { EXTRA: "1" })).toEqual({ NPM_TOKEN: "n", PGPASSWORD: "p", PATH: "/bin", EXTRA: "1" });
  });

  it("reads header names by the same rule", () => {
    for (const header of ["Authorization", "Proxy-Authorization", "Cookie", "X-Api-Key", "Private-Token", "X-Auth-Token", "apikey"])
      expect(looksSecretName(header), header).toBe(true);
    for (const header of ["Accept", "Content-Type", "User-Agent", "X-Request-Id", "If-None-Match", "X-Keep"])
      expect(looksSecretName(header), header).toBe(false);
  });
});
