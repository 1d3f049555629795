// What looks like a credential, by name or by value: the one rule behind the environment a model's
// command gets (src/security/commands/child-env.ts) and the headers a redirect to another origin
// keeps (src/capabilities/http/http-client.ts). Over-matching is cheap (a variable a build did not
// need, a header the next origin did not need; --pass-env gives a variable back), under-matching
// puts a credential in the model's context, so the rule leans wide.
//
// A name is split into words at "_", "-", ".", ":", "/" and at lower-to-upper case changes
// ("clientSecret" is CLIENT SECRET), and matched in upper case. It is secret when:
//   - a word contains SECRET, PASSWORD, PASSWD, PASSPHRASE, CREDENTIAL, WEBHOOK or PRIVATEKEY
//     (APP_SECRETS, CLIENTSECRET, PGPASSWORD, SLACK_WEBHOOK_URL);
//   - a word ends in TOKEN(S) or KEY(S) (GITHUB_TOKEN, GHTOKEN, NPM_CONFIG_//host/:_AUTHTOKEN,
//     ANTHROPIC_API_KEY, APIKEY, X-Api-Key), but not TOKENIZERS_PARALLELISM;
//   - a word is one of the short conventions: PWD after another word (MYSQL_PWD, never PWD or
//     OLDPWD themselves), PAT, PASS, PW, SK, DSN, AUTH, AUTHORIZATION, SIGNING, SALT, COOKIE,
//     BEARER, OTP, or the pair CONNECTION STRING;
//   - it names the ssh agent's socket (SSH_AUTH_SOCK): whoever can reach it can sign as the user.
// A value is secret when it is a URL with a password (postgres://user:pass@host) or has the shape
// of a well-known token (ghp_..., github_pat_..., sk-ant-..., xoxb-..., AKIA..., glpat-...,
// a PEM private key), whatever its name.

const CONTAINS = ["SECRET", "PASSWORD", "PASSWD", "PASSPHRASE", "CREDENTIAL", "WEBHOOK", "PRIVATEKEY"];
const WORDS = new Set(["PAT", "PASS", "PW", "SK", "DSN", "AUTH", "AUTHORIZATION", "SIGNING", "SALT", "COOKIE", "BEARER", "OTP"]);
/** Words that are secret only after another word: PWD alone is the working directory. */
const LATER_WORDS = new Set(["PWD"]);

/** A URL with a password in it (DATABASE_URL=postgres://user:pass@host/db). */
const URL_WITH_PASSWORD = /^[a-z][a-z0-9+.-]*:\/\/[^/\s:@]*:[^/\s@]+@/i;
/** Token formats with a fixed shape, for a secret under an innocent name. */
const TOKEN_VALUE =
  /^(?:Bearer\s+\S{12,}|gh[pousr]_[A-Za-z0-9]{20,}|github_pat_\w{20,}|glpat-[\w-]{16,}|sk-(?:ant-|proj-)?[\w-]{20,}|(?:sk|rk|pk)_(?:live|test)_\w{16,}|xox[abposr]-[\w-]{10,}|AKIA[0-9A-Z]{16}|ASIA[0-9A-Z]{16}|AIza[\w-]{30,}|npm_[A-Za-z0-9]{30,}|-----BEGIN [A-Z ]*PRIVATE KEY-----)/;

/** The words of a variable or header name, upper case. */
function words(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .toUpperCase()
    .split(/[^A-Z0-9]+/)
    .filter((w) => w !== "");
}

/** Whether a variable or header named `name` holds a credential by convention. */
export function looksSecretName(name: string): boolean {
  const ws = words(name);
  if (ws.join("_") === "SSH_AUTH_SOCK") return true;
  for (const [i, w] of ws.entries()) {
    if (CONTAINS.some((c) => w.includes(c))) return true;
    if (/(TOKENS?|KEYS?)$/.test(w)) return true;
    if (WORDS.has(w) || (i > 0 && LATER_WORDS.has(w))) return true;
    if (w === "CONNECTION" && ws[i + 1] === "STRING") return true;
  }
  return false;
}

/** Whether a value looks like a credential whatever it is called. */
export function looksSecretValue(value: string): boolean {
  const v = value.trim();
  return URL_WITH_PASSWORD.test(v) || TOKEN_VALUE.test(v);
}
