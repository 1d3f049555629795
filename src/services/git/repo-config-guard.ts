// The repository's own config is not the user's. A .git/config (or a file it includes) can name
// programs git runs: a filter driver on status, an ssh command on fetch, a credential helper on
// push. Nobody gets such a config from `git clone`; it arrives with an unpacked archive, a nested
// repository, or a write by anyone (a model included) who could change files in .git. The user's own
// global and system config are trusted like their shell.
//
// So, for each program-running key set in the repository's scopes (local, worktree), the bridge adds
// a `-c` that wins over it (command-line config is read last): the user's own value when they have
// one, else a harmless default. Read tools, which clients often run without asking, get filter
// drivers switched off as well. Write tools keep the repository's filters and hooks: git-crypt and
// `git lfs install --local` put their filters there, and turning them off for a commit would commit
// plaintext; a write is an explicit, approved action, like `git commit` in a terminal.
// Diff drivers (diff.external, diff.<driver>.command/textconv) are covered by --no-ext-diff and
// --no-textconv on every diffing command; the editor, askpass and pager keys by GIT_ENV.
import { ToolError } from "../../errors.ts";

/** What a tool does: reads only, changes the repository, or also talks to a remote. */
export type GitAccess = "read" | "write" | "remote";

interface ConfigEntry {
  scope: string;
  /** As git lists it: section and name lowercased, subsection as written. */
  key: string;
  value: string;
}

interface Rule {
  key: RegExp;
  /** What the key becomes when the user has no value of their own. */
  neutral: string;
  /**
   * Each value adds to a list (credential helpers), and an empty value of this key empties it: the
   * generic key, which applies to every URL.
   */
  resetKey?: string;
  readsOnly?: boolean;
}

const RULES: readonly Rule[] = [
  { key: /^core\.sshcommand$/, neutral: "ssh" },
  { key: /^credential\.(.+\.)?helper$/, neutral: "", resetKey: "credential.helper" },
  { key: /^gpg\.(openpgp\.)?program$/, neutral: "gpg" },
  { key: /^gpg\.x509\.program$/, neutral: "gpgsm" },
  { key: /^gpg\.ssh\.program$/, neutral: "ssh-keygen" },
  { key: /^gpg\.ssh\.defaultkeycommand$/, neutral: "" },
  // git's own three-way merge, with the driver protocol's placeholders (result in %A, exit code = conflicts).
  { key: /^merge\..+\.driver$/, neutral: "git merge-file --marker-size=%L %A %O %B" },
  { key: /^filter\..+\.(clean|smudge|process)$/, neutral: "", readsOnly: true },
  { key: /^filter\..+\.required$/, neutral: "false", readsOnly: true },
];

/**
 * Keys git reads first-match-wins, so no later `-c` can override the repository's value. Only
 * transports use them: fetch, pull and push refuse such a repository rather than run
 * half-neutralised; other tools never reach a transport.
 */
const UNOVERRIDABLE = /^(core\.gitproxy|remote\..+\.(uploadpack|receivepack))$/;

const UNTRUSTED_SCOPES = new Set(["local", "worktree"]);

/**
 * Parses `git config --list --show-scope --includes -z`: for each entry a NUL-terminated scope, then
 * "key\nvalue" NUL-terminated (a bare key, a boolean written without "=", comes without "\n").
 */
export function parseConfigList(output: string): ConfigEntry[] {
  const entries: ConfigEntry[] = [];
  const fields = output.split("\0");
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const scope = fields[i] ?? "";
    const rest = fields[i + 1] ?? "";
    const newline = rest.indexOf("\n");
    entries.push({ scope, key: newline < 0 ? rest : rest.slice(0, newline), value: newline < 0 ? "true" : rest.slice(newline + 1) });
  }
  return entries;
}

/** The `-c key=value` arguments that take the repository's program-running keys away. */
export function configOverrides(entries: readonly ConfigEntry[], access: GitAccess): string[] {
  const overrides: string[] = [];
  const handled = new Set<string>();
  for (const entry of entries) {
    if (!UNTRUSTED_SCOPES.has(entry.scope)) continue;
    if (UNOVERRIDABLE.test(entry.key)) {
      if (access === "remote") throw refusal(entry.key);
      continue;
    }
    const rule = RULES.find((r) => r.key.test(entry.key));
    if (rule === undefined || (rule.readsOnly === true && access !== "read")) continue;
    const group = rule.resetKey ?? entry.key;
    if (handled.has(group)) continue;
    handled.add(group);
    overrides.push(
      ...(rule.resetKey !== undefined
        ? listOverride(entries, rule, rule.resetKey)
        : [setting(entry.key, lastTrusted(entries, entry.key) ?? rule.neutral)]),
    );
  }
  return overrides.flatMap((o) => ["-c", o]);
}

/** Empties the whole list, then adds the user's own entries back in their order. */
function listOverride(entries: readonly ConfigEntry[], rule: Rule, resetKey: string): string[] {
  const trusted = entries.filter((e) => !UNTRUSTED_SCOPES.has(e.scope) && rule.key.test(e.key));
  return [setting(resetKey, ""), ...trusted.map((e) => setting(e.key, e.value))];
}

function lastTrusted(entries: readonly ConfigEntry[], key: string): string | undefined {
  let value: string | undefined;
  for (const e of entries) if (e.key === key && !UNTRUSTED_SCOPES.has(e.scope)) value = e.value;
  return value;
}

function setting(key: string, value: string): string {
  // `-c a=b=c` splits at the first "=": a key holding one (a hostile subsection) cannot be overridden.
  if (key.includes("=")) throw refusal(key);
  return `${key}=${value}`;
}

function refusal(key: string): ToolError {
  return new ToolError(
    "git_failed",
    `This repository's own config sets \`${key}\` in a way the bridge cannot neutralise, so it does not run git here`,
    {
      suggestion: `Look at \`git config --show-origin --get-all ${key}\`; remove the entry from .git/config if you did not put it there, then retry.`,
    },
  );
}
