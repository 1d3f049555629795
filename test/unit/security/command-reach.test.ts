// runCommand's checks that need the disk and the resolver, in-process on a real temporary tree:
// paths walked as the kernel walks them (a link out refused wherever it sits in a value, ".." after
// a link climbing from its target, a dangling link refused, plain names and git refs untouched),
// and the hosts a command line makes its tool reach (URLs, scp-like remotes, module paths, option
// values) refused on loopback and private addresses by spelling or by resolution, unless
// --allow-private-http. Aliases and response files are judged expanded.
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createNodeRuntime } from "../../../runtime/node.ts";
import { checkCommandLine, createCommandPolicy } from "../../../src/security/commands/command-policy.ts";
import { checkCommandReach } from "../../../src/security/commands/command-reach.ts";
import { expandArguments } from "../../../src/security/commands/expand-arguments.ts";

const runtime = createNodeRuntime();
let base: string;
let ws: string;

const readText = (path: string) => runtime.fs.readTextFile(path).catch(() => undefined);

async function reach(line: string[], opts: { allowPrivate?: boolean; cwd?: string } = {}) {
  const place = { cwd: opts.cwd ?? ws, folders: [ws] };
  const command = line[0] ?? "";
  const args = await expandArguments({ command, args: line.slice(1), place }, { readText });
  return (
    checkCommandLine(createCommandPolicy([]), { command, args, place }) ??
    (await checkCommandReach(
      { command, args, place },
      { fs: runtime.fs, resolveHost: runtime.resolveHost, allowPrivate: opts.allowPrivate ?? false, readText },
    ))
  );
}

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), "cib-reach-")));
  ws = join(base, "ws");
  await mkdir(join(ws, "a", "b"), { recursive: true });
  await mkdir(join(base, "outside"));
  await symlink(join(base, "outside"), join(ws, "out"));
  await symlink(join(ws, "a", "b"), join(ws, "deep"));
  await symlink(join(ws, "nowhere"), join(ws, "dangling"));
  await mkdir(join(ws, ".cargo"));
  await writeFile(
    join(ws, ".cargo", "config.toml"),
    '[alias]\nfar = ["build", "--target-dir", "out/t"]\n# a user alias may redefine a built-in alias\nb = "install --path x"\n',
  );
  await writeFile(join(ws, "args.txt"), '--outDir "out/x" a.ts');
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

describe("paths through links", () => {
  it.each([
    [["npm", "--prefix", "out"]],
    [["npm", "--prefix=out/x"]],
    [["git", "-Cout", "status"]],
    [["tsc", "--outDir", "./a/../out/y"]],
    [["go", "mod", "edit", "-replace=x=out/y"]],
    [["jest", "--reporters", '["out/r.js"]']],
    [["npm", "i", "file:out"]],
    [["npm", "i", "name@./out/pkg"]],
    [["npm", "run", "build", "--", "out"]],
    [["npm", "--cache", "dangling/x"]],
    // deep -> a/b, so deep/../../.. climbs from a/b: a, ws, then out of it.
    [["npm", "--prefix", "deep/../../../x"]],
    [["cargo", "far"]],
    [["tsc", "@args.txt"]],
  ])("refuses %j", async (line) => {
    expect((await reach(line))?.why).toMatch(/outside the workspace/);
  });

  it.each([
    [["git", "log", "origin/main", "--", "a/b"]],
    [["npm", "--prefix", "deep/x"]],
    [["git", "commit", "-m", "move a/../b and ../x\nsecond line"]],
    [["npm", "run", "build", "--", "a/b"]],
  ])("allows %j", async (line) => {
    expect(await reach(line)).toBeUndefined();
  });
});

describe("aliases", () => {
  it("reads a project alias before cargo's built-in one of the same name, as cargo does", async () => {
    expect((await reach(["cargo", "b"]))?.why).toMatch(/cargo install/);
    expect(await reach(["cargo", "c"])).toBeUndefined();
  });
});

describe("hosts a command reaches", () => {
  it.each([
    [["git", "ls-remote", "http://127.0.0.1:9/r"]],
    [["git", "clone", "127.0.0.1:repo", "x"]],
    [["git", "clone", "user@localhost:repo", "x"]],
    [["git", "fetch", "ssh://[::1]:22/r"]],
    [["git", "push", "git://10.0.0.1/r", "main"]],
    [["git", "remote", "set-url", "origin", "http://169.254.169.254/"]],
    [["npm", "i", "x", "--registry=http://0x7f.1/"]],
    [["npm", "i", "x", "--https-proxy=http://192.168.1.1:3128"]],
    [["cargo", "search", "x", "--index", "sparse+http://localhost/"]],
    [["go", "get", "127.0.0.1/evil@latest"]],
    [["go", "mod", "download", "localhost/x"]],
  ])("refuses %j", async (line) => {
    expect((await reach(line))?.why).toMatch(/connect to .* which is refused/);
  });

  it("lets them through with --allow-private-http, and a public or unresolvable host always", async () => {
    expect(await reach(["git", "ls-remote", "http://127.0.0.1:9/r"], { allowPrivate: true })).toBeUndefined();
    expect(await reach(["git", "clone", "no-such-host.invalid:repo", "x"])).toBeUndefined();
    expect(await reach(["go", "get", "example.invalid/x@v1"])).toBeUndefined();
    expect(await reach(["npm", "i", "x", "--registry=http://93.184.216.34/"])).toBeUndefined();
  });
});
