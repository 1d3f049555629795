// Programs runCommand can never run, whatever --allow-command says: each one runs code or a command
// line given in its arguments (an interpreter's -e/-c, a shell, make's recipes, a command runner
// like env or xargs, an editor's or pager's shell escape, a database shell's \! or .shell), so
// allowing it would turn the allowlist into "anything". Matched by name after the version suffix
// is dropped ("python3.12", "node20", "pypy3" alike); the same program under another name or path
// is caught by its identity (src/security/commands/executable-identity.ts).

const NEVER_ALLOWED = new Set([
  // language interpreters and REPLs
  "node", "nodejs", "deno", "bun", "bunx", "tsx", "ts-node", "esno", "python", "pypy", "ipython", "jupyter",
  "ruby", "irb", "perl", "php", "lua", "luajit", "tclsh", "wish", "expect", "rscript", "r", "julia",
  "java", "jshell", "groovy", "kotlin", "scala", "dotnet", "swift", "ghci", "runghc", "runhaskell",
  "ocaml", "erl", "escript", "elixir", "iex", "clojure", "racket", "guile", "sbcl", "osascript",
  "awk", "gawk", "mawk", "nawk", "sed",
  // shells
  "sh", "bash", "rbash", "dash", "ash", "zsh", "ksh", "mksh", "fish", "csh", "tcsh", "rc", "elvish",
  "nu", "xonsh", "pwsh", "powershell", "cmd", "busybox", "toybox",
  // programs that run another program or a command line
  "env", "xargs", "find", "make", "gmake", "cmake", "ninja", "nohup", "timeout", "nice", "ionice",
  "setsid", "stdbuf", "time", "watch", "script", "chroot", "unshare", "nsenter", "sudo", "doas", "su",
  "runuser", "ssh", "strace", "ltrace", "gdb", "lldb", "valgrind", "tmux", "screen", "parallel",
  "docker", "podman", "systemd-run", "flock", "entr",
  // editors, pagers and database shells with shell escapes
  "vi", "vim", "nvim", "view", "ex", "ed", "emacs", "nano", "less", "more", "man", "sqlite3", "psql",
  "mysql", "mariadb", "mongosh", "mongo",
]);

/** A program name normalized for the check: lowercase, no ".exe", no version suffix. */
export function programBase(name: string): string {
  return name
    .toLowerCase()
    .replace(/\.(exe|cmd|bat|com)$/, "")
    .replace(/[-_.]?\d+([._-]\d+)*[a-z]?$/, "");
}

/** Whether `name` (a bare program name or a path's last component) is never runnable. */
export function isNeverAllowed(name: string): boolean {
  const base = programBase(name);
  return NEVER_ALLOWED.has(base) || NEVER_ALLOWED.has(name.toLowerCase());
}

/** Interpreters looked up on PATH once, so a copy or link of one under another name is known. */
export const IDENTITY_PROBES = ["node", "nodejs", "deno", "bun", "python", "python3", "ruby", "perl", "php", "bash", "sh", "dash", "zsh", "ksh", "fish", "busybox", "env", "make", "awk", "gawk"];
