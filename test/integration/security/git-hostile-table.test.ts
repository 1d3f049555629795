// The table of hostile repositories: each configuration names a program (in .git/config, a file it
// includes, .gitattributes, .git/info/attributes, hooks, a gitfile's directory, the push target's
// hooks) that would leave a marker holding a fake secret from its environment. Every tool that
// runs git (the git toolset, contextBundle, getProjectContext, runCommand's git, doctor's git
// check) is called on them, and no program may run. Then plain git, without the bridge, is run on
// the same repository to show that each configuration does run its program (a control: the table
// must be hostile for real, not a list of keys git ignores).
//
// Configurations that do not cover each other (no two set the same key) share a repository, so the
// whole toolset runs once per repository rather than once per configuration.
import { execFile, execFileSync } from "node:child_process";
import { createServer, type Server } from "node:http";
import { appendFile, chmod, mkdir, mkdtemp, readdir, readFile, realpath, rename, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createNodeRuntime } from "../../../runtime/node.ts";
import { toolChecks } from "../../../src/cli/doctor-tools.ts";
import { commandsToolset } from "../../../src/tools/commands/index.ts";
import { gitToolset } from "../../../src/tools/git/index.ts";
import { searchToolset } from "../../../src/tools/search/index.ts";
import { gitFixture, type GitFixture } from "../../helpers/git-fixture.ts";
import { dispatcher } from "../../helpers/tool-dispatch.ts";
import { toolErrorCode } from "../../helpers/tool-error.ts";

const execFileAsync = promisify(execFile);
const SECRET = "fake-secret-4f1c";
const FILES = 60;
const HOOKS = [
  "pre-commit",
  "prepare-commit-msg",
  "commit-msg",
  "post-commit",
  "post-checkout",
  "post-merge",
  "pre-push",
  "pre-rebase",
  "post-rewrite",
  "reference-transaction",
  "post-index-change",
  "pre-auto-gc",
  "pre-merge-commit",
];

interface Setup {
  /** The case's own file (cNN.txt), committed and changed in the working tree. */
  file: string;
  work: string;
  /** The git directory (outside the working tree for the gitfile case). */
  gitDir: () => string;
  moveGitDir(to: string): void;
  origin: string;
  /** A program that leaves this case's marker (named `name`); `filter` ones pass their input through. */
  program(name: string, opts?: { filter?: boolean }): Promise<string>;
  config(text: string): Promise<void>;
  attributes(line: string, where?: string): Promise<void>;
  hooks(dir: string): Promise<void>;
}

interface Case {
  name: string;
  /** Which shared repository: cases in one never set the same key. */
  repo: number;
  setup(s: Setup): Promise<void>;
  /** Plain git commands (no bridge) that run the program: the control. Absent where only a person's terminal would. */
  control?: string[][];
}

const CASES: Case[] = [
  // The gitfile layout moves the git directory, so it comes first in its repository.
  {
    name: "gitfile to a git directory outside, whose config names an fsmonitor",
    repo: 0,
    async setup(s) {
      const outside = join(s.work, "..", "gitdir");
      await rename(join(s.work, ".git"), outside);
      await writeFile(join(s.work, ".git"), `gitdir: ${outside}\n`);
      s.moveGitDir(outside);
      await s.config(`[core]\n\tfsmonitor = ${await s.program("fsmonitor")}\n`);
    },
    control: [["status"]],
  },
  {
    name: "core.fsmonitor",
    repo: 1,
    setup: async (s) => s.config(`[core]\n\tfsmonitor = ${await s.program("m")}\n`),
    control: [["status"]],
  },
  {
    name: "every hook in .git/hooks",
    repo: 0,
    setup: async (s) => s.hooks(join(s.gitDir(), "hooks")),
    control: [["commit", "--allow-empty", "-m", "control"]],
  },
  {
    name: "core.hooksPath outside the workspace",
    repo: 1,
    async setup(s) {
      const dir = join(s.work, "..", "hooks-outside");
      await s.hooks(dir);
      await s.config(`[core]\n\thooksPath = ${dir}\n`);
    },
    control: [["commit", "--allow-empty", "-m", "control"]],
  },
  {
    name: "core.hooksPath = .husky in the workspace",
    repo: 2,
    async setup(s) {
      await s.hooks(join(s.work, ".husky"));
      await s.config("[core]\n\thooksPath = .husky\n");
    },
    control: [["commit", "--allow-empty", "-m", "control"]],
  },
  {
    name: "filter clean",
    repo: 0,
    async setup(s) {
      await s.config(`[filter "c${s.file}"]\n\tclean = ${await s.program("clean", { filter: true })}\n`);
      await s.attributes(`${s.file} filter=c${s.file}`);
    },
    control: [["add", "CASEFILE"]],
  },
  {
    name: "filter smudge",
    repo: 1,
    async setup(s) {
      await s.config(`[filter "s${s.file}"]\n\tsmudge = ${await s.program("smudge", { filter: true })}\n`);
      await s.attributes(`${s.file} filter=s${s.file}`);
    },
    control: [["checkout", "HEAD", "--", "CASEFILE"]],
  },
  {
    name: "filter process",
    repo: 2,
    async setup(s) {
      await s.config(`[filter "p${s.file}"]\n\tprocess = ${await s.program("process", { filter: true })}\n`);
      await s.attributes(`${s.file} filter=p${s.file}`);
    },
    control: [["add", "CASEFILE"]],
  },
  {
    name: "required filter clean",
    repo: 3,
    async setup(s) {
      await s.config(`[filter "r${s.file}"]\n\tclean = ${await s.program("clean", { filter: true })}\n\trequired = true\n`);
      await s.attributes(`${s.file} filter=r${s.file}`);
    },
    control: [["add", "CASEFILE"]],
  },
  {
    name: "filter named in .git/info/attributes",
    repo: 4,
    async setup(s) {
      await s.config(`[filter "i${s.file}"]\n\tclean = ${await s.program("clean", { filter: true })}\n`);
      await s.attributes(`${s.file} filter=i${s.file}`, join(s.gitDir(), "info", "attributes"));
    },
    control: [["add", "CASEFILE"]],
  },
  {
    name: "filter named in a core.attributesFile the repository sets",
    repo: 0,
    async setup(s) {
      const file = join(s.work, "..", "attributes-file");
      await s.config(
        `[filter "a${s.file}"]\n\tclean = ${await s.program("clean", { filter: true })}\n[core]\n\tattributesFile = ${file}\n`,
      );
      await s.attributes(`${s.file} filter=a${s.file}`, file);
    },
    control: [["add", "CASEFILE"]],
  },
  {
    name: "filter clean in a file included with includeIf gitdir",
    repo: 1,
    async setup(s) {
      const inc = join(s.work, "..", "included-filter");
      await writeFile(inc, `[filter "g${s.file}"]\n\tclean = ${await s.program("clean", { filter: true })}\n`);
      await s.config(`[includeIf "gitdir:/"]\n\tpath = ${inc}\n`);
      await s.attributes(`${s.file} filter=g${s.file}`);
    },
    control: [["add", "CASEFILE"]],
  },
  {
    name: "diff textconv (working tree)",
    repo: 0,
    async setup(s) {
      await s.config(`[diff "t${s.file}"]\n\ttextconv = ${await s.program("textconv", { filter: true })}\n`);
      await s.attributes(`${s.file} diff=t${s.file}`);
    },
    control: [["diff", "--", "CASEFILE"]],
  },
  {
    name: "diff textconv on history (log -p, blame)",
    repo: 1,
    async setup(s) {
      await s.config(`[diff "h${s.file}"]\n\ttextconv = ${await s.program("textconv", { filter: true })}\n\tcachetextconv = true\n`);
      await s.attributes(`${s.file} diff=h${s.file}`);
    },
    control: [["log", "-p", "-1", "--", "CASEFILE"]],
  },
  {
    name: "diff textconv from .git/info/attributes",
    repo: 2,
    async setup(s) {
      await s.config(`[diff "n${s.file}"]\n\ttextconv = ${await s.program("textconv", { filter: true })}\n`);
      await s.attributes(`${s.file} diff=n${s.file}`, join(s.gitDir(), "info", "attributes"));
    },
    control: [["diff", "--", "CASEFILE"]],
  },
  {
    name: "diff textconv from a .gitattributes in a subfolder",
    repo: 3,
    async setup(s) {
      await s.config(`[diff "u${s.file}"]\n\ttextconv = ${await s.program("textconv", { filter: true })}\n`);
      await s.attributes(`*.ts diff=u${s.file}`, join(s.work, "src", ".gitattributes"));
    },
    control: [["diff", "--", "src/lib.ts"]],
  },
  {
    name: "diff driver command",
    repo: 4,
    async setup(s) {
      await s.config(`[diff "d${s.file}"]\n\tcommand = ${await s.program("diff-command")}\n`);
      await s.attributes(`${s.file} diff=d${s.file}`);
    },
    control: [["diff", "--", "CASEFILE"]],
  },
  {
    name: "diff.external",
    repo: 5,
    setup: async (s) => s.config(`[diff]\n\texternal = ${await s.program("external")}\n`),
    control: [["diff"]],
  },
  {
    name: "merge driver",
    repo: 2,
    async setup(s) {
      await s.config(`[merge "m${s.file}"]\n\tdriver = ${await s.program("merge-driver")} %A %O %B\n`);
      await s.attributes(`${s.file} merge=m${s.file}`);
    },
  },
  { name: "core.pager", repo: 0, setup: async (s) => s.config(`[core]\n\tpager = ${await s.program("pager")}\n`) },
  {
    name: "pager.log and pager.diff",
    repo: 1,
    setup: async (s) => s.config(`[pager]\n\tlog = ${await s.program("pager")}\n\tdiff = ${await s.program("pager2")}\n`),
  },
  {
    name: "core.editor",
    repo: 2,
    setup: async (s) => s.config(`[core]\n\teditor = ${await s.program("editor")}\n`),
    control: [["commit", "--allow-empty"]],
  },
  {
    name: "sequence.editor",
    // Not beside a required filter: the control's stash must be able to check files out.
    repo: 4,
    setup: async (s) => s.config(`[sequence]\n\teditor = ${await s.program("sequence-editor")}\n`),
    // After the battery a rebase or merge may be stopped midway (a commit it could not sign): the
    // control ends those first, stashes the tracked changes (an included config file in the
    // workspace is untracked and must stay) and starts an interactive rebase.
    control: [["rebase", "--abort"], ["merge", "--abort"], ["stash"], ["rebase", "-i", "HEAD~1"]],
  },
  {
    name: "credential.helper (a shell command)",
    repo: 0,
    setup: async (s) => s.config(`[credential]\n\thelper = !${await s.program("helper")}\n`),
    control: [["fetch", "web"]],
  },
  {
    name: "credential.<url>.helper",
    repo: 1,
    setup: async (s) => s.config(`[credential "http://127.0.0.1:${port}"]\n\thelper = !${await s.program("helper")}\n`),
    control: [["fetch", "web"]],
  },
  {
    name: "credential.helper (a path)",
    repo: 2,
    setup: async (s) => s.config(`[credential]\n\thelper = ${await s.program("helper")}\n`),
    control: [["fetch", "web"]],
  },
  {
    name: "core.sshCommand",
    repo: 0,
    setup: async (s) => s.config(`[core]\n\tsshCommand = ${await s.program("ssh")}\n`),
    control: [["fetch", "viassh"]],
  },
  {
    name: "core.sshCommand in a file in the workspace, included",
    repo: 3,
    async setup(s) {
      await writeFile(join(s.work, "extra.gitconfig"), `[core]\n\tsshCommand = ${await s.program("ssh")}\n`);
      await s.config("[include]\n\tpath = ../extra.gitconfig\n");
    },
    control: [["fetch", "viassh"]],
  },
  {
    name: "url insteadOf an ext:: command, protocol.ext.allow = always",
    repo: 1,
    async setup(s) {
      await s.config(
        `[protocol "ext"]\n\tallow = always\n[url "ext::${await s.program("ext")} %S "]\n\tinsteadOf = evil:\n[remote "evilx"]\n\turl = evil:x\n\tfetch = +refs/heads/*:refs/remotes/evilx/*\n`,
      );
    },
    control: [["fetch", "evilx"]],
  },
  {
    name: "a remote whose url is ext::, protocol.allow = always",
    repo: 2,
    async setup(s) {
      await s.config(
        `[protocol]\n\tallow = always\n[remote "extdirect"]\n\turl = ext::${await s.program("ext")} %S\n\tfetch = +refs/heads/*:refs/remotes/extdirect/*\n`,
      );
    },
    control: [["fetch", "extdirect"]],
  },
  {
    name: "pushInsteadOf to an ext:: command",
    repo: 3,
    async setup(s) {
      await s.config(
        `[protocol "ext"]\n\tallow = always\n[url "ext::${await s.program("ext-push")} %S "]\n\tpushInsteadOf = ${s.origin}\n`,
      );
    },
    control: [["push", "origin", "HEAD:refs/heads/control"]],
  },
  {
    name: "core.alternateRefsCommand with an alternate object store",
    repo: 4,
    async setup(s) {
      await writeFile(join(s.gitDir(), "objects", "info", "alternates"), `${join(s.origin, "objects")}\n`);
      await s.config(`[core]\n\talternateRefsCommand = ${await s.program("alternate-refs")}\n`);
    },
    control: [["fetch", "origin"]],
  },
  {
    name: "log.showSignature with gpg.program (a signed commit in history)",
    repo: 0,
    setup: async (s) => s.config(`[log]\n\tshowSignature = true\n[gpg]\n\tprogram = ${await s.program("gpg")}\n`),
    control: [["log", "-20"]],
  },
  {
    name: "log.showSignature with gpg.ssh.program (an ssh-signed commit)",
    repo: 1,
    async setup(s) {
      // git verifies an ssh signature only against an allowed-signers file (an empty one will do).
      const allowed = join(s.work, "..", "allowed-signers");
      await writeFile(allowed, "");
      await s.config(
        `[log]\n\tshowSignature = true\n[gpg "ssh"]\n\tprogram = ${await s.program("gpg-ssh")}\n\tallowedSignersFile = ${allowed}\n`,
      );
    },
    control: [["log", "-20"]],
  },
  {
    name: "log.showSignature with gpg.x509.program (an x509-signed commit)",
    repo: 2,
    setup: async (s) => s.config(`[log]\n\tshowSignature = true\n[gpg "x509"]\n\tprogram = ${await s.program("gpgsm")}\n`),
    control: [["log", "-20"]],
  },
  {
    name: "commit.gpgSign with gpg.program",
    repo: 3,
    setup: async (s) => s.config(`[commit]\n\tgpgSign = true\n[gpg]\n\tprogram = ${await s.program("gpg")}\n`),
    control: [["commit", "--allow-empty", "-m", "control"]],
  },
  {
    name: "commit.gpgSign with gpg.format = ssh and gpg.ssh.program",
    repo: 6,
    setup: async (s) =>
      s.config(
        `[commit]\n\tgpgSign = true\n[gpg]\n\tformat = ssh\n[gpg "ssh"]\n\tprogram = ${await s.program("ssh-sign")}\n[user]\n\tsigningKey = key::ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIDx\n`,
      ),
    control: [["commit", "--allow-empty", "-m", "control"]],
  },
  {
    name: "merge.verifySignatures with gpg.program",
    repo: 4,
    setup: async (s) => s.config(`[merge]\n\tverifySignatures = true\n[gpg]\n\tprogram = ${await s.program("gpg")}\n`),
  },
  {
    name: "tag.gpgSign with gpg.openpgp.program",
    repo: 5,
    setup: async (s) => s.config(`[tag]\n\tgpgSign = true\n[gpg "openpgp"]\n\tprogram = ${await s.program("gpg")}\n`),
    control: [["tag", "-a", "control", "-m", "control"]],
  },
  {
    name: "a shell alias",
    repo: 0,
    setup: async (s) => s.config(`[alias]\n\tst = !${await s.program("alias")}\n`),
    control: [["st"]],
  },
  {
    name: "core.fsmonitor in an included file",
    repo: 2,
    async setup(s) {
      const inc = join(s.work, "..", "included-fsmonitor");
      await writeFile(inc, `[core]\n\tfsmonitor = ${await s.program("fsmonitor")}\n`);
      await s.config(`[include]\n\tpath = ${inc}\n`);
    },
    control: [["status"]],
  },
  {
    // Any branch: the tools' own calls may leave the repository on another one before the control runs.
    name: "core.fsmonitor under includeIf onbranch:**",
    repo: 3,
    async setup(s) {
      const inc = join(s.work, "..", "onbranch-fsmonitor");
      await writeFile(inc, `[core]\n\tfsmonitor = ${await s.program("fsmonitor")}\n`);
      await s.config(`[includeIf "onbranch:**"]\n\tpath = ${inc}\n`);
    },
    control: [["status"]],
  },
  {
    name: "core.fsmonitor in the worktree config (extensions.worktreeConfig)",
    repo: 4,
    async setup(s) {
      await s.config("[extensions]\n\tworktreeConfig = true\n");
      await writeFile(join(s.gitDir(), "config.worktree"), `[core]\n\tfsmonitor = ${await s.program("fsmonitor")}\n`);
    },
    control: [["status"]],
  },
  {
    name: "trailer command",
    repo: 1,
    setup: async (s) => s.config(`[trailer "evil"]\n\tcmd = ${await s.program("trailer")}\n`),
    control: [["interpret-trailers", "--trailer", "evil=1", "CASEFILE"]],
  },
  {
    name: "tar.<format>.command",
    repo: 2,
    setup: async (s) => s.config(`[tar "evil"]\n\tcommand = ${await s.program("tar")}\n`),
    control: [["archive", "--format=evil", "HEAD"]],
  },
  {
    name: "difftool.<tool>.cmd with diff.tool",
    repo: 3,
    setup: async (s) => s.config(`[diff]\n\ttool = evil\n[difftool "evil"]\n\tcmd = ${await s.program("difftool")}\n`),
    control: [["difftool", "-y", "--", "CASEFILE"]],
  },
  {
    name: "interactive.diffFilter",
    repo: 4,
    setup: async (s) => s.config(`[interactive]\n\tdiffFilter = ${await s.program("difffilter")}\n`),
  },
  {
    name: "mergetool.<tool>.cmd with merge.tool",
    repo: 0,
    setup: async (s) => s.config(`[merge]\n\ttool = evil\n[mergetool "evil"]\n\tcmd = ${await s.program("mergetool")}\n`),
  },
  {
    name: "the push target's own hooks (pre-receive, update, post-receive, reference-transaction)",
    repo: 1,
    setup: async (s) => s.hooks(join(s.origin, "hooks")),
    control: [["push", "origin", "HEAD:refs/heads/control-target"]],
  },
  {
    name: "core.fsmonitor in a workspace file included by a relative path",
    repo: 5,
    async setup(s) {
      await writeFile(join(s.work, "fsmonitor.gitconfig"), `[core]\n\tfsmonitor = ${await s.program("fsmonitor")}\n`);
      await s.config("[include]\n\tpath = ../fsmonitor.gitconfig\n");
    },
    control: [["status"]],
  },
  {
    name: "lfs custom transfer agent",
    repo: 5,
    setup: async (s) =>
      s.config(`[lfs "customtransfer.evil"]\n\tpath = ${await s.program("lfs")}\n[lfs]\n\tstandalonetransferagent = evil\n`),
  },
  {
    name: "init.templateDir with hooks",
    repo: 4,
    async setup(s) {
      const dir = join(s.work, "..", "template-dir");
      await s.hooks(join(dir, "hooks"));
      await s.config(`[init]\n\ttemplateDir = ${dir}\n`);
    },
  },
  // Keys git takes first-match-wins, which no -c can override: transports refuse the repository.
  {
    name: "remote.<name>.uploadpack",
    repo: 6,
    setup: async (s) => s.config(`[remote "origin"]\n\tuploadpack = ${await s.program("upload-pack")}\n`),
    control: [["fetch", "origin"]],
  },
  {
    name: "remote.<name>.receivepack",
    repo: 6,
    setup: async (s) => s.config(`[remote "origin"]\n\treceivepack = ${await s.program("receive-pack")}\n`),
    control: [["push", "origin", "HEAD:refs/heads/control-rp"]],
  },
  {
    name: "core.gitProxy on a git:// remote",
    repo: 6,
    async setup(s) {
      await s.config(
        `[core]\n\tgitProxy = ${await s.program("git-proxy")}\n[remote "gp"]\n\turl = git://127.0.0.1:1/x\n\tfetch = +refs/heads/*:refs/remotes/gp/*\n`,
      );
    },
    control: [["fetch", "gp"]],
  },
];

let base: string;
let fx: GitFixture;
let server: Server;
let port = 0;
let template: string;

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), "cib-git-table-")));
  fx = await gitFixture(base);
  server = createServer((_req, res) => {
    res.writeHead(401, { "WWW-Authenticate": 'Basic realm="x"' });
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  port = typeof address === "object" && address !== null ? address.port : 0;
  const files: Record<string, string> = { "a.txt": "one\ntwo\n", "b.md": "# b\n", "src/lib.ts": "export const x = 1;\n" };
  for (let i = 0; i < FILES; i++) files[`c${String(i).padStart(2, "0")}.txt`] = `case ${i}\nline two\n`;
  const seed = await fx.repo(join(base, "seed"), files);
  // Three signed commits (OpenPGP, ssh, x509): log.showSignature hands each to its program.
  for (const armor of ["PGP SIGNATURE", "SSH SIGNATURE", "SIGNED MESSAGE"]) {
    const head = fx.git(seed, "cat-file", "commit", "HEAD");
    const tree = fx.git(seed, "rev-parse", "HEAD^{tree}").trim();
    const parent = fx.git(seed, "rev-parse", "HEAD").trim();
    const who =
      head
        .split("\n")
        .find((l) => l.startsWith("author "))
        ?.slice(7) ?? "";
    const body = `tree ${tree}\nparent ${parent}\nauthor ${who}\ncommitter ${who}\ngpgsig -----BEGIN ${armor}-----\n \n AAAA\n -----END ${armor}-----\n\nsigned (${armor})\n`;
    const id = execGit(seed, ["hash-object", "-t", "commit", "-w", "--stdin"], body).trim();
    fx.git(seed, "update-ref", "refs/heads/main", id);
  }
  template = join(base, "template.git");
  fx.git(base, "clone", "--quiet", "--bare", seed, template);
}, 120_000);

afterAll(async () => {
  server.close();
  await rm(base, { recursive: true, force: true });
});

/** The fixture's git with stdin (it takes none). */
function execGit(cwd: string, args: string[], input: string): string {
  return execFileSync("git", args, { cwd, env: fx.env, input, encoding: "utf8" });
}

interface Built {
  work: string;
  markers: string;
  cases: { c: Case; file: string; prefix: string }[];
  /** The case files that attributes name (a filter, diff or merge driver): blamed and diffed one by one. */
  files: string[];
}

async function build(repo: number): Promise<Built> {
  const dir = join(base, `repo-${repo}`);
  const markers = join(dir, "markers");
  const programs = join(dir, "programs");
  await mkdir(markers, { recursive: true });
  await mkdir(programs, { recursive: true });
  const origin = join(dir, "origin.git");
  const work = join(dir, "work");
  fx.git(base, "clone", "--quiet", "--bare", template, origin);
  fx.git(base, "clone", "--quiet", origin, work);
  fx.git(work, "config", "remote.web.url", `http://127.0.0.1:${port}/repo.git`);
  fx.git(work, "config", "remote.web.fetch", "+refs/heads/*:refs/remotes/web/*");
  fx.git(work, "config", "remote.viassh.url", "ssh://git@127.0.0.1:1/repo.git");
  const cases: Built["cases"] = [];
  const used = new Set<string>();
  let gitDir = join(work, ".git");
  for (const [i, c] of CASES.entries()) {
    if (c.repo !== repo) continue;
    const file = `c${String(i).padStart(2, "0")}.txt`;
    const prefix = `case${i}-`;
    const s: Setup = {
      file,
      work,
      gitDir: () => gitDir,
      moveGitDir(to) {
        gitDir = to;
      },
      origin,
      async program(name, opts = {}) {
        const path = join(programs, `${prefix}${name}`);
        // Leaves the marker with the secret it found, then behaves as the slot needs (a filter passes data through).
        const marker = JSON.stringify(join(markers, `${prefix}${name}`));
        await writeFile(
          path,
          `#!/bin/sh\nprintf '%s\\n' "ran: $CIB_FAKE_SECRET" >> ${marker}\n${opts.filter === true ? "cat\n" : "exit 0\n"}`,
        );
        await chmod(path, 0o755);
        return path;
      },
      config: (text) => appendFile(join(gitDir, "config"), text),
      async attributes(line, where = join(work, ".gitattributes")) {
        if (where !== join(work, "src", ".gitattributes")) used.add(file);
        await mkdir(join(where, ".."), { recursive: true });
        await appendFile(where, `${line}\n`);
      },
      async hooks(hookDir) {
        await mkdir(hookDir, { recursive: true });
        for (const hook of [...HOOKS, "pre-receive", "update", "post-receive", "push-to-checkout"]) {
          const marker = JSON.stringify(join(markers, `${prefix}hook-${hook}`));
          await writeFile(join(hookDir, hook), `#!/bin/sh\nprintf '%s\\n' "ran: $CIB_FAKE_SECRET" >> ${marker}\n`, { mode: 0o755 });
        }
      },
    };
    await c.setup(s);
    cases.push({ c, file, prefix });
  }
  await dirty(work);
  return { work, markers, cases, files: [...used] };
}

/** Every file changed in the working tree, one untracked: status and diff must look at content. */
async function dirty(work: string): Promise<void> {
  for (let i = 0; i < FILES; i++) await appendFile(join(work, `c${String(i).padStart(2, "0")}.txt`), "changed\n");
  await appendFile(join(work, "a.txt"), "three\n");
  await appendFile(join(work, "src", "lib.ts"), "export const y = 2;\n");
  await writeFile(join(work, "new.md"), "new\n");
}

/** Every tool that runs git, on the repository; what each answered (ok, or the error code). */
async function battery(built: Built): Promise<Record<string, string>> {
  const { work, files } = built;
  const runtime = fx.runtime({ CIB_FAKE_SECRET: SECRET, GITHUB_TOKEN: SECRET, AWS_SECRET_ACCESS_KEY: SECRET });
  // A generous call timeout: a loaded machine must not turn a slow answer into a failure here.
  const d = await dispatcher(work, { toolsets: [gitToolset, searchToolset, commandsToolset], runtime, settings: { timeoutMs: 120_000 } });
  const outcomes: Record<string, string> = {};
  const call = async (label: string, tool: string, args: Record<string, unknown> = {}) => {
    const result = await d.call(tool, args);
    outcomes[label] = toolErrorCode(result) ?? "ok";
  };
  const git = (label: string, args: string[]) => call(`runCommand git ${label}`, "runCommand", { command: "git", args });
  await call("getGitStatus", "getGitStatus");
  await call("getGitDiff", "getGitDiff");
  await call("getGitDiff stat", "getGitDiff", { stat: true });
  await call("getGitLog", "getGitLog");
  await call("getCommitDetails", "getCommitDetails");
  await call("getDiffBetweenRefs", "getDiffBetweenRefs", { base: "HEAD~3", head: "HEAD" });
  await call("getGitHotspots", "getGitHotspots");
  await call("gitListBranches", "gitListBranches", { includeRemote: true });
  await call("gitStashList", "gitStashList");
  for (const file of [...files, "src/lib.ts"]) {
    await call(`gitBlame ${file}`, "gitBlame", { path: file });
    await call(`getSymbolHistory ${file}`, "getSymbolHistory", { path: file, startLine: 1, endLine: 2 });
  }
  await call("contextBundle", "contextBundle");
  await call("getProjectContext", "getProjectContext");
  for (const args of [
    ["status"],
    ["diff"],
    ["diff", "--stat"],
    ["log", "-p", "-5"],
    ["log", "--show-signature", "-5"],
    ["show", "HEAD~1"],
    ["grep", "case"],
    ["ls-files"],
    ["config", "--local", "--list"],
    ["st"],
    ["archive", "--format=evil", "HEAD"],
    ["difftool", "-y"],
    ["interpret-trailers", "--trailer", "evil=1", "a.txt"],
    ...files.flatMap((f) => [["blame", f]]),
  ])
    await git(args.join(" "), args);
  await call("gitStash", "gitStash", { includeUntracked: true });
  await call("gitStashPop", "gitStashPop");
  await call("gitCheckout create", "gitCheckout", { branch: "topic", create: true });
  await call("gitAdd all", "gitAdd", { addUntracked: true });
  await call("gitAdd", "gitAdd", { files: ["a.txt", "new.md"] });
  await call("gitCommit", "gitCommit", { message: "battery" });
  await call("gitPush", "gitPush", { setUpstream: true });
  await call("gitFetch", "gitFetch", { remote: "origin" });
  await call("gitFetch all", "gitFetch", { all: true });
  await call("gitPull", "gitPull", { remote: "origin", branch: "main" });
  await call("gitCheckout main", "gitCheckout", { branch: "main" });
  await call("gitAbortOperation", "gitAbortOperation");
  await call("gitContinueOperation", "gitContinueOperation");
  for (const args of [
    ["add", ...files],
    ["commit", "-m", "runCommand"],
    ["commit", "--allow-empty"],
    ["fetch", "origin"],
    ["fetch", "web"],
    ["fetch", "viassh"],
    ["fetch", "evilx"],
    ["fetch", "extdirect"],
    ["fetch", "gp"],
    ["stash"],
    ["stash", "pop"],
    ["checkout", "topic"],
    ["tag", "-a", "t1", "-m", "t1"],
    ["rebase", "-i", "HEAD~1"],
    ["merge", "main"],
  ])
    await git(args.join(" "), args);
  const checks = await toolChecks({ ...createNodeRuntime(), ...runtime }, work);
  outcomes.doctor = checks.find((c) => c.summary.startsWith("git"))?.status ?? "missing";
  return outcomes;
}

async function markersOf(dir: string): Promise<string[]> {
  return (await readdir(dir)).sort();
}

const repos = [...new Set(CASES.map((c) => c.repo))].sort();

describe("hostile repository configurations against every tool that runs git", () => {
  it("the table has at least 40 configurations", () => {
    expect(CASES.length).toBeGreaterThanOrEqual(40);
  });

  it.each(repos)(
    "repository %i: no program runs, and plain git on the same repository runs each configuration's",
    async (repo) => {
      const built = await build(repo);
      const outcomes = await battery(built);
      // The tools ran (a refusal is an answer too, but not a malformed call).
      // A malformed call, a bridge bug or a hang would hide what the tool does.
      const broken = Object.entries(outcomes).filter(([, o]) => /^(invalid_arguments|unknown_tool|internal_error|timeout)$/.test(o));
      expect(broken).toEqual([]);
      for (const tool of [
        "getGitStatus",
        "getGitLog",
        "contextBundle",
        "getProjectContext",
        "runCommand git status",
        "gitBlame src/lib.ts",
      ])
        expect(outcomes[tool], tool).toBe("ok");
      expect(outcomes.doctor).toBe("ok");
      expect(await markersOf(built.markers), JSON.stringify(outcomes)).toEqual([]);

      // The control: without the bridge, git runs what the configuration names, with the secret.
      const env = { ...fx.env, CIB_FAKE_SECRET: SECRET };
      await dirty(built.work);
      for (const { c, file, prefix } of built.cases) {
        for (const args of c.control ?? []) {
          try {
            // Asynchronous: the HTTP remote that asks for a password is served by this process.
            const run = execFileAsync(
              "git",
              args.map((a) => (a === "CASEFILE" ? file : a)),
              { cwd: built.work, env, timeout: 20_000 },
            );
            // Closed at once: a textconv program that reads its input (`cat`) would otherwise wait
            // on this stdin until the timeout.
            run.child.stdin?.end();
            await run;
          } catch {
            // Many controls fail after the program ran (an unreachable remote, an empty commit message).
          }
        }
        if (c.control === undefined) continue;
        const mine = (await markersOf(built.markers)).filter((m) => m.startsWith(prefix));
        expect(mine, c.name).not.toEqual([]);
        expect(await readFile(join(built.markers, mine[0] as string), "utf8"), c.name).toContain(SECRET);
      }
    },
    600_000,
  );
});
