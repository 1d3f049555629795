// The project config files a tool reads, judged before it runs: pytest's -p in arguments and
// addopts, .npmrc registries, proxies and program keys, .cargo/config.toml registries and proxies.
import { describe, expect, it } from "vitest";
import { checkProjectConfig, pytestPlugins } from "../../../src/security/commands/project-config.ts";

const ws = "/ws";
function deps(files: Record<string, string>, opts: { allowPrivate?: boolean } = {}) {
  return {
    readText: async (path: string) => files[path],
    // Names resolve to a public address, except those named "internal".
    resolveHost: async (host: string) => (host.includes("internal") ? ["10.0.0.5"] : ["93.184.216.34"]),
    allowPrivate: opts.allowPrivate ?? false,
  };
}
const check = (command: string, args: string[], files: Record<string, string>, cwd = ws, allowPrivate = false) =>
  checkProjectConfig({ command, args, place: { cwd, folders: [ws] } }, deps(files, { allowPrivate }));

describe("pytest -p", () => {
  it("finds the plugins -p loads in every spelling, and leaves -p no: and other options' values alone", () => {
    expect(pytestPlugins(["-p", "evil"])).toEqual(["evil"]);
    expect(pytestPlugins(["-pevil"])).toEqual(["evil"]);
    expect(pytestPlugins(["-vxp", "evil"])).toEqual(["evil"]);
    expect(pytestPlugins(["-vpevil"])).toEqual(["evil"]);
    expect(pytestPlugins(["-p", "no:cacheprovider", "-pno:randomly"])).toEqual([]);
    // -k's value holds a "p": it is an expression, not -p.
    expect(pytestPlugins(["-kparse", "-m", "p", "-vk", "p"])).toEqual([]);
    expect(pytestPlugins(["--", "-p", "evil"])).toEqual([]);
  });

  it("refuses -p in the addopts of pytest.ini, pyproject.toml (a list over lines), tox.ini and setup.cfg, in a parent too", async () => {
    const cases: Record<string, string> = {
      "/ws/pytest.ini": "[pytest]\naddopts = -q -p evil\n",
      "/ws/pyproject.toml": '[tool.pytest.ini_options]\naddopts = [\n"-v",\n"-p",\n"evil",\n]\n',
      "/ws/tox.ini": "[pytest]\naddopts =\n    -v\n    -pevil\n",
      "/ws/setup.cfg": "[tool:pytest]\naddopts = --strict-markers -vp evil\n",
    };
    for (const [file, text] of Object.entries(cases)) {
      const refusal = await check("pytest", [], { [file]: text }, "/ws/sub");
      expect(refusal?.why, file).toMatch(new RegExp(`-p evil.*addopts of ${file.replace(".", "\\.")}`));
    }
    expect(await check("pytest", [], { "/ws/pytest.ini": "[pytest]\naddopts = -ra -p no:cacheprovider\n" })).toBeUndefined();
    // Above the workspace: the user's own.
    expect(await check("pytest", [], { "/pytest.ini": "[pytest]\naddopts = -p evil\n" })).toBeUndefined();
  });
});

describe(".npmrc", () => {
  it("refuses a loopback, private or internal registry, scoped registry or proxy, unless --allow-private-http", async () => {
    for (const line of [
      "registry=http://127.0.0.1:4873/",
      "@acme:registry=http://[::1]:4873/",
      "https-proxy=http://localhost:3128",
      "proxy = http://192.168.1.2:3128",
      "registry=https://npm.internal.example/",
    ]) {
      expect((await check("npm", ["install"], { "/ws/.npmrc": `${line}\n` }))?.why, line).toMatch(/\.npmrc sets .*refused/);
      expect(await check("npm", ["install"], { "/ws/.npmrc": `${line}\n` }, ws, true), line).toBeUndefined();
    }
    expect(
      await check("npm", ["install"], { "/ws/.npmrc": "registry=https://registry.example.com/\n; registry=http://127.0.0.1/\n" }),
    ).toBeUndefined();
  });

  it("does not judge registries for commands that reach none, but does when an option comes first", async () => {
    const files = { "/ws/.npmrc": "registry=http://127.0.0.1:4873/\n" };
    expect(await check("npm", ["run", "build"], files)).toBeUndefined();
    expect(await check("npm", ["test"], files)).toBeUndefined();
    expect(await check("npm", ["--loglevel", "run", "install"], files)).toBeDefined();
    expect(await check("npm", ["view", "x"], files)).toBeDefined();
  });

  it("refuses keys that name a program npm runs, for every command", async () => {
    for (const key of ["git", "script-shell", "node-options", "NODE_OPTIONS", "shell", "editor"]) {
      expect((await check("npm", ["run", "x"], { "/ws/.npmrc": `${key}=/tmp/evil\n` }))?.why, key).toMatch(
        /sets `(git|script-shell|node-options|shell|editor)`/,
      );
    }
  });
});

describe(".npmrc for pnpm", () => {
  it("judges pnpm's registries and program keys as npm's, and its pnpmfile, which npm does not read", async () => {
    const registry = { "/ws/.npmrc": "registry=http://127.0.0.1:4873/\n" };
    expect((await check("pnpm", ["install"], registry))?.why).toMatch(/makes pnpm connect to 127\.0\.0\.1, which is refused/);
    expect(await check("pnpm", ["install"], registry, ws, true)).toBeUndefined();
    expect(await check("pnpm", ["run", "build"], registry)).toBeUndefined();
    expect(await check("pnpm", ["add", "left-pad"], registry)).toBeDefined();
    const hooks = { "/ws/.npmrc": "pnpmfile=.evil.cjs\n" };
    expect((await check("pnpm", ["run", "build"], hooks))?.why).toMatch(/sets `pnpmfile`, a program or code pnpm runs/);
    expect(await check("npm", ["run", "build"], hooks)).toBeUndefined();
    expect((await check("pnpm", ["test"], { "/ws/.npmrc": "node-options=--require ./x.js\n" }))?.why).toMatch(/sets `node-options`/);
  });
});

describe(".cargo/config.toml", () => {
  it("refuses a loopback registry index, source replacement or proxy (host:port too) in the directory or a parent", async () => {
    const cases = [
      '[registries.x]\nindex = "sparse+http://127.0.0.1:8000/"\n',
      '[source.mirror]\nregistry = "http://localhost/index"\n',
      '[http]\nproxy = "127.0.0.1:3128"\n',
      "[net]\n[http]\nproxy = 'http://10.1.2.3:8080'\n",
    ];
    for (const text of cases) {
      expect((await check("cargo", ["fetch"], { "/ws/.cargo/config.toml": text }, "/ws/crate"))?.why, text).toMatch(
        /config\.toml sets .*refused/,
      );
      expect((await check("cargo", ["fetch"], { "/ws/crate/.cargo/config": text }, "/ws/crate"))?.why, text).toMatch(/config sets/);
    }
    expect(
      await check("cargo", ["build"], { "/ws/.cargo/config.toml": '[registries.x]\nindex = "sparse+https://crates.example.com/"\n' }),
    ).toBeUndefined();
  });
});

describe("yarn's .yarnrc.yml and .yarnrc", () => {
  it("refuses yarnPath, plugins and classic yarn-path, which run workspace code on every command, in a parent too", async () => {
    const cases: Record<string, string> = {
      "/ws/.yarnrc.yml": "nodeLinker: node-modules\nyarnPath: .yarn/releases/yarn-4.5.0.cjs\n",
      "/ws/sub/.yarnrc.yml": 'plugins:\n  - path: .yarn/plugins/evil.cjs\n    spec: "evil"\n',
      "/ws/.yarnrc": 'yarn-path ".yarn/releases/evil.js"\n',
    };
    for (const [file, text] of Object.entries(cases)) {
      const refusal = await check("yarn", ["--version"], { [file]: text }, "/ws/sub");
      expect(refusal?.why, file).toMatch(new RegExp(`${file.replace(/\./g, "\\.")} sets \`(yarnPath|plugins|yarn-path)\`, code yarn runs`));
    }
    expect(await check("yarn", ["test"], { "/ws/.yarnrc.yml": "nodeLinker: pnp\nenableTelemetry: false\n" })).toBeUndefined();
    // Above the workspace: the user's own.
    expect(await check("yarn", ["test"], { "/.yarnrc.yml": "yarnPath: /opt/yarn.cjs\n" })).toBeUndefined();
  });

  it("judges its registries and proxies, scoped ones included, unless --allow-private-http", async () => {
    const scoped = { "/ws/.yarnrc.yml": 'npmScopes:\n  acme:\n    npmRegistryServer: "http://127.0.0.1:4873"\n' };
    expect((await check("yarn", ["install"], scoped))?.why).toMatch(/sets `npmRegistryServer`.*makes yarn connect to 127\.0\.0\.1/);
    expect(await check("yarn", ["install"], scoped, ws, true)).toBeUndefined();
    expect((await check("yarn", ["add", "x"], { "/ws/.yarnrc": 'registry "http://10.1.2.3/"\n' }))?.why).toMatch(
      /makes yarn connect to 10\.1\.2\.3/,
    );
    expect(await check("yarn", ["install"], { "/ws/.yarnrc.yml": "npmRegistryServer: https://registry.example.com\n" })).toBeUndefined();
  });
});
