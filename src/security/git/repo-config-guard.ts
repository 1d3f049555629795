// The repository's own config is not the user's. A .git/config (or a file it includes) can name
// programs git runs: a filter driver on status, an ssh command on fetch, a credential helper on
// push, a textconv on blame. Nobody gets such a config from `git clone`; it arrives with an
// unpacked archive, a nested repository, or a write by anyone who could change files in .git. The
// user's own global and system config are trusted like their shell.
//
// So, for each program-running key set in the repository's scopes (local, worktree), the bridge adds
// a `-c` that wins over it (command-line config is read last): the user's own value when they have
// one, else a neutral value. Neutral is harmless where git has one (plain ssh, git's own three-way
// merge); else empty, which makes git fail with "cannot run" rather than run anything. Filters are
// the one place where failing matters: a write that skipped a clean filter (git-crypt, LFS) would
// commit plaintext or the whole file, so for writes each such filter is made `required`, and git
// refuses the files that use it instead (read tools see the raw content). Keys git reads in the
// environment first (core.editor, sequence.editor, core.pager, core.askPass) are covered by
// git-environment.ts; keys the bridge sets on every run (core.fsmonitor, core.hooksPath,
// core.alternateRefsCommand, log.showSignature) by its fixed options.
import { ToolError } from "../../errors.ts";

/** What a git run does: reads only, changes the repository, or also talks to a remote. */
export type GitAccess = "read" | "write" | "remote";

export interface ConfigEntry {
  scope: string;
  /** As git lists it: section and name lowercased, subsection as written. */
  key: string;
  value: string;
}

interface Rule {
  key: RegExp;
  /** What the key becomes when the user has no value of their own; undefined: the repository's value is harmless. */
  neutral: (value: string) => string | undefined;
  /**
   * Each value adds to a list (credential helpers), and an empty value of this key empties it: the
   * generic key, which applies to every URL.
   */
  resetKey?: string;
}

const always =
  (neutral: string) =>
  (_value: string): string =>
    neutral;
const empty = always("");

const RULES: readonly Rule[] = [
  { key: /^core\.sshcommand$/, neutral: always("ssh") },
  { key: /^credential\.(.+\.)?helper$/, neutral: empty, resetKey: "credential.helper" },
  { key: /^gpg\.(openpgp\.)?program$/, neutral: always("gpg") },
  { key: /^gpg\.x509\.program$/, neutral: always("gpgsm") },
  { key: /^gpg\.ssh\.program$/, neutral: always("ssh-keygen") },
  { key: /^gpg\.ssh\.defaultkeycommand$/, neutral: empty },
  // git's own three-way merge, with the driver protocol's placeholders (result in %A, exit code = conflicts).
  { key: /^merge\..+\.driver$/, neutral: always("git merge-file --marker-size=%L %A %O %B") },
  // Filters are neutralised per driver (filterOverrides): clean, smudge and process together.
  // Diff drivers: the tools pass --no-ext-diff and --no-textconv; runCommand's git does not.
  { key: /^diff\.external$/, neutral: empty },
  { key: /^diff\..+\.(command|textconv)$/, neutral: empty },
  // A `!` alias is a shell command; builtins always win over aliases, so the tools never meet one.
  { key: /^alias\..+$/, neutral: empty },
  { key: /^help\.autocorrect$/, neutral: always("0") },
  // `update = !command` runs on `git submodule update`; checkout, merge, rebase and none are git's own.
  { key: /^submodule\..+\.update$/, neutral: (value) => (value.trim().startsWith("!") ? "checkout" : undefined) },
  { key: /^trailer\..+\.(cmd|command)$/, neutral: empty },
  { key: /^interactive\.difffilter$/, neutral: empty },
  { key: /^tar\..+\.command$/, neutral: always("gzip -cn") },
  { key: /^imap\.tunnel$/, neutral: empty },
  { key: /^(man|browser|difftool|mergetool|guitool)\..+\.(cmd|path)$/, neutral: empty },
  { key: /^(web|help|instaweb)\.browser$|^man\.viewer$|^instaweb\.httpd$/, neutral: empty },
  { key: /^init\.templatedir$/, neutral: empty },
  // ext:: and fd:: run a command: the fixed `never` for them must not give way to the repository's
  // own protocol.ext.allow (this override comes after the fixed options, so it has to say never too).
  { key: /^protocol\.(ext|fd)\.allow$/, neutral: always("never") },
  { key: /^protocol\.(.+\.)?allow$/, neutral: always("user") },
  // git-lfs (the user's filter) reads these from the repository's config and runs them.
  { key: /^lfs\.customtransfer\..+\.path$|^lfs\.standalonetransferagent$|^lfs\.extension\..+\.(clean|smudge)$/, neutral: empty },
];

const FILTER_COMMAND = /^filter\.(.+)\.(clean|smudge|process)$/;

/**
 * Keys git reads first-match-wins, so no later `-c` can override the repository's value, and a
 * helper name git runs as given (remote.<name>.vcs: `git-remote-<vcs>`, a relative path when it holds
 * a "/"). Only transports use them: a run that reaches one refuses such a repository rather than
 * run half-neutralised; other runs never reach a transport.
 */
const UNOVERRIDABLE = /^(core\.gitproxy|remote\..+\.(uploadpack|receivepack|vcs))$/;

const UNTRUSTED_SCOPES = new Set(["local", "worktree"]);

export function isUntrusted(entry: ConfigEntry): boolean {
  return UNTRUSTED_SCOPES.has(entry.scope);
}

/** An entry as `git config --list --show-origin` gives it: also where git read it. */
export interface ListedConfigEntry extends ConfigEntry {
  /** "file:<path>" (a relative path is relative to the working tree's top), "command line:", "blob:<id>", ... */
  origin: string;
}

/**
 * Parses `git config --list --show-scope --show-origin --includes -z`: for each entry a
 * NUL-terminated scope, a NUL-terminated origin, then "key\nvalue" NUL-terminated (a bare key, a
 * boolean written without "=", comes without "\n").
 */
export function parseConfigList(output: string): ListedConfigEntry[] {
  const entries: ListedConfigEntry[] = [];
  const fields = output.split("\0");
  for (let i = 0; i + 2 < fields.length; i += 3) {
    const scope = fields[i] ?? "";
    const origin = fields[i + 1] ?? "";
    const rest = fields[i + 2] ?? "";
    const newline = rest.indexOf("\n");
    entries.push({
      scope,
      origin,
      key: newline < 0 ? rest : rest.slice(0, newline),
      value: newline < 0 ? "true" : rest.slice(newline + 1),
    });
  }
  return entries;
}

/** The `-c key=value` arguments that take the repository's program-running keys away. */
export function configOverrides(entries: readonly ConfigEntry[], access: GitAccess): string[] {
  const overrides: string[] = [];
  const handled = new Set<string>();
  for (const entry of entries) {
    if (!isUntrusted(entry)) continue;
    if (UNOVERRIDABLE.test(entry.key)) {
      if (access === "remote") throw refusal(entry.key);
      continue;
    }
    const rule = RULES.find((r) => r.key.test(entry.key));
    if (rule === undefined) continue;
    const group = rule.resetKey ?? entry.key;
    if (handled.has(group)) continue;
    if (rule.resetKey !== undefined) {
      handled.add(group);
      overrides.push(...listOverride(entries, rule, rule.resetKey));
      continue;
    }
    const value = lastTrusted(entries, entry.key) ?? rule.neutral(lastUntrusted(entries, entry.key) ?? entry.value);
    handled.add(group);
    if (value !== undefined) overrides.push(setting(entry.key, value));
  }
  overrides.push(...filterOverrides(entries, access));
  return overrides.flatMap((o) => ["-c", o]);
}

/**
 * Each filter driver the repository defines loses all three commands (a process filter is used
 * before clean and smudge) and, for a write, becomes required: git then refuses a file that uses it
 * rather than store it unfiltered. The user's own definition of the same driver (LFS in the global
 * config) is put back.
 */
function filterOverrides(entries: readonly ConfigEntry[], access: GitAccess): string[] {
  const drivers = new Set<string>();
  for (const entry of entries) {
    const match = FILTER_COMMAND.exec(entry.key);
    if (match !== null && isUntrusted(entry)) drivers.add(match[1] as string);
  }
  return [...drivers].flatMap((driver) => {
    const key = (name: string) => `filter.${driver}.${name}`;
    const commands = ["clean", "smudge", "process"].map((name) => setting(key(name), lastTrusted(entries, key(name)) ?? ""));
    const required = lastTrusted(entries, key("required")) ?? (access === "read" ? "false" : "true");
    return [...commands, setting(key("required"), required)];
  });
}

/** Empties the whole list, then adds the user's own entries back in their order. */
function listOverride(entries: readonly ConfigEntry[], rule: Rule, resetKey: string): string[] {
  const trusted = entries.filter((e) => !isUntrusted(e) && rule.key.test(e.key));
  return [setting(resetKey, ""), ...trusted.map((e) => setting(e.key, e.value))];
}

function lastTrusted(entries: readonly ConfigEntry[], key: string): string | undefined {
  let value: string | undefined;
  for (const e of entries) if (e.key === key && !isUntrusted(e)) value = e.value;
  return value;
}

function lastUntrusted(entries: readonly ConfigEntry[], key: string): string | undefined {
  let value: string | undefined;
  for (const e of entries) if (e.key === key && isUntrusted(e)) value = e.value;
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
