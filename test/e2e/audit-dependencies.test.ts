// auditDependencies on the real npm, which asks its registry for advisories: the registry is a
// stand-in on 127.0.0.1 (the workspace's .npmrc points npm at it), answering the bulk advisory
// endpoint and the packuments npm reads to work out fixes. Everything else is npm's own: its
// lock-file reading, its report, its exit code.
import { readdir } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempWorkspaces, type TempWorkspaces } from "../helpers/temp-workspace.ts";
import { dispatcher } from "../helpers/tool-dispatch.ts";

interface Audit {
  auditor: string;
  counts: Record<string, number>;
  advisories: { package: string; severity: string; title: string; url?: string; fix?: string }[];
}

const ADVISORIES = {
  lodash: [
    {
      id: 1106913,
      url: "https://github.com/advisories/GHSA-35jh-r3h4-6jhm",
      title: "Command Injection in lodash",
      severity: "high",
      vulnerable_versions: "<4.17.21",
      cwe: ["CWE-77"],
      cvss: { score: 7.2, vectorString: null },
    },
  ],
  minimist: [
    {
      id: 1096465,
      url: "https://github.com/advisories/GHSA-xvch-5gv4-984h",
      title: "Prototype Pollution in minimist",
      severity: "critical",
      vulnerable_versions: "<0.2.4",
      cwe: ["CWE-1321"],
      cvss: { score: 9.8, vectorString: null },
    },
  ],
};

const packument = (name: string, versions: string[], dependencies: Record<string, string> = {}) => ({
  name,
  "dist-tags": { latest: versions.at(-1) },
  versions: Object.fromEntries(
    versions.map((v) => [v, { name, version: v, dependencies, dist: { tarball: `http://127.0.0.1/${name}/-/${name}-${v}.tgz` } }]),
  ),
});
const PACKUMENTS: Record<string, unknown> = {
  lodash: packument("lodash", ["4.17.20", "4.17.21"]),
  minimist: packument("minimist", ["0.0.8", "0.2.4"]),
  mkdirp: packument("mkdirp", ["0.5.1"], { minimist: "0.0.8" }),
};

let temp: TempWorkspaces;
let registry: Server;
let port = 0;
const requests: string[] = [];
/** A machine's own npm_config_registry would win over the workspace's .npmrc: it is pointed here too. */
const savedRegistry = process.env.npm_config_registry;

beforeAll(async () => {
  temp = await tempWorkspaces("cib-audit-");
  registry = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    req.resume();
    req.on("end", () => {
      const json = (status: number, body: unknown) => {
        res.writeHead(status, { "content-type": "application/json" });
        res.end(JSON.stringify(body));
      };
      if (req.url?.startsWith("/-/npm/v1/security/advisories/bulk") === true) return json(200, ADVISORIES);
      const found = PACKUMENTS[decodeURIComponent(req.url?.slice(1) ?? "")];
      return found === undefined ? json(404, { error: "not found" }) : json(200, found);
    });
  });
  await new Promise<void>((resolve) => registry.listen(0, "127.0.0.1", resolve));
  port = (registry.address() as AddressInfo).port;
  process.env.npm_config_registry = `http://127.0.0.1:${port}/`;
});
afterAll(async () => {
  if (savedRegistry === undefined) delete process.env.npm_config_registry;
  else process.env.npm_config_registry = savedRegistry;
  await new Promise((resolve) => registry.close(resolve));
  await temp.remove();
});

/** `nested`: what an installed package depends on; `direct`: the root's own dependencies (default: all of deps). */
const lock = (
  deps: Record<string, string>,
  nested: Record<string, { dependencies: Record<string, string> }> = {},
  direct: Record<string, string> = deps,
) =>
  JSON.stringify({
    name: "app",
    version: "1.0.0",
    lockfileVersion: 3,
    requires: true,
    packages: {
      "": { name: "app", version: "1.0.0", dependencies: direct },
      ...Object.fromEntries(
        Object.entries(deps).map(([name, version]) => [
          `node_modules/${name}`,
          { version, resolved: `http://127.0.0.1:${port}/${name}/-/${name}-${version}.tgz`, ...nested[name] },
        ]),
      ),
    },
  });

describe("auditDependencies with npm", () => {
  it("runs npm audit and lists the advisories worst first, with their fixes", { timeout: 120_000 }, async () => {
    const deps = { lodash: "4.17.20", minimist: "0.0.8" };
    const root = await temp.make("npm-app", {
      "package.json": JSON.stringify({ name: "app", version: "1.0.0", dependencies: deps }),
      "package-lock.json": lock(deps),
      ".npmrc": `registry=http://127.0.0.1:${port}/\n`,
    });
    // A registry on this machine (the stand-in, as a company's would be) is one the user allows.
    const d = await dispatcher(root, { settings: { allowPrivateHttp: true } });
    const audit = await d.data<Audit>("auditDependencies", {});
    expect(requests.some((r) => r.startsWith("POST /-/npm/v1/security/advisories/bulk"))).toBe(true);
    expect(audit.auditor).toBe("npm");
    expect(audit.counts).toEqual({ critical: 1, high: 1, moderate: 0, low: 0, info: 0, unknown: 0 });
    expect(audit.advisories.map((a) => [a.package, a.severity, a.title, a.url])).toEqual([
      ["minimist", "critical", "Prototype Pollution in minimist", "https://github.com/advisories/GHSA-xvch-5gv4-984h"],
      ["lodash", "high", "Command Injection in lodash", "https://github.com/advisories/GHSA-35jh-r3h4-6jhm"],
    ]);
    // npm worked out the fixed versions from the packuments.
    expect(audit.advisories.map((a) => a.fix)).toEqual(["minimist@0.2.4 (semver-major)", "lodash@4.17.21"]);
  });

  it("says a lock file is needed, without running npm", async () => {
    const root = await temp.make("no-lock", {
      "package.json": JSON.stringify({ name: "x", version: "1.0.0", dependencies: { lodash: "^4" } }),
    });
    const d = await dispatcher(root);
    const failure = await d.failure("auditDependencies", {});
    expect(failure).toMatchObject({ code: "not_detected", suggestion: expect.stringMatching(/package-lock-only/) });
  });
});

interface Advisories {
  ecosystems: { ecosystem: string; command: string; status: string; why?: string; advisories: Record<string, unknown>[] }[];
}

describe("getSecurityAdvisories", () => {
  it("lists npm's advisories with their paths and fixes, refuses yarn and never lets cargo run a workspace alias", {
    timeout: 120_000,
  }, async () => {
    const direct = { lodash: "4.17.20", mkdirp: "0.5.1" };
    const root = await temp.make("advisories", {
      "package.json": JSON.stringify({ name: "app", version: "1.0.0", dependencies: direct }),
      "package-lock.json": lock({ ...direct, minimist: "0.0.8" }, { mkdirp: { dependencies: { minimist: "0.0.8" } } }, direct),
      ".npmrc": `registry=http://127.0.0.1:${port}/\n`,
      // A workspace alias shadowing the cargo-audit subcommand: `cargo audit` would build and run build.rs.
      "Cargo.toml": '[package]\nname = "app"\nversion = "0.1.0"\nedition = "2021"\nbuild = "build.rs"\n',
      "Cargo.lock": "version = 3\n",
      ".cargo/config.toml": '[alias]\naudit = ["run", "--quiet", "--"]\n',
      "build.rs": 'fn main() { std::fs::write("PWNED", "").unwrap(); }\n',
      "src/main.rs": "fn main() {}\n",
    });
    const d = await dispatcher(root, { settings: { allowPrivateHttp: true } });
    const { ecosystems } = await d.data<Advisories>("getSecurityAdvisories", { ecosystems: ["npm", "yarn", "rust"] });
    const [npm, yarn, rust] = ecosystems;
    expect(npm).toMatchObject({ ecosystem: "npm", command: "npm audit --json", status: "audited" });
    expect(npm?.advisories).toEqual([
      {
        id: "GHSA-xvch-5gv4-984h",
        package: "minimist",
        severity: "critical",
        title: "Prototype Pollution in minimist",
        url: "https://github.com/advisories/GHSA-xvch-5gv4-984h",
        vulnerable: "<0.2.4",
        paths: ["mkdirp > minimist"],
        fix: expect.stringMatching(/^(npm audit fix|none published|\S+@\S+.*)$/),
      },
      {
        id: "GHSA-35jh-r3h4-6jhm",
        package: "lodash",
        severity: "high",
        title: "Command Injection in lodash",
        url: "https://github.com/advisories/GHSA-35jh-r3h4-6jhm",
        vulnerable: "<4.17.21",
        paths: ["lodash"],
        fix: "lodash@4.17.21",
      },
    ]);
    expect(yarn).toMatchObject({
      ecosystem: "yarn",
      status: "not_run",
      why: expect.stringMatching(/yarnPath and plugins.*yarn audit --json/s),
    });
    // cargo-audit is on no CI machine; where it is, it runs itself (offline: no advisory database), never the alias.
    expect(rust).toMatchObject({
      ecosystem: "rust",
      command: "cargo audit --json",
      status: expect.stringMatching(/^(not_installed|failed|audited)$/),
    });
    expect(await readdir(root)).not.toContain("PWNED");
    expect(await readdir(root)).not.toContain("target");
  });

  it("does not run pnpm where the workspace names its registry (pnpm's .npmrc hosts are not checked)", async () => {
    const root = await temp.make("pnpm-hosts", {
      "package.json": JSON.stringify({ name: "app", version: "1.0.0" }),
      "pnpm-lock.yaml": "lockfileVersion: '9.0'\n",
      ".npmrc": "@acme:registry=http://169.254.169.254/\n",
    });
    const d = await dispatcher(root);
    const { ecosystems } = await d.data<Advisories>("getSecurityAdvisories", {});
    expect(ecosystems).toEqual([
      {
        ecosystem: "pnpm",
        command: "pnpm audit --json --ignore-pnpmfile",
        status: "not_run",
        why: expect.stringMatching(
          /^The workspace's \.npmrc names a registry or proxy, .* Run `pnpm audit --json --ignore-pnpmfile` in your own terminal/,
        ),
        advisories: [],
      },
    ]);
  });

  it("says so, with the command, when the registry cannot be reached", { timeout: 120_000 }, async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const deps = { lodash: "4.17.20" };
    const root = await temp.make("offline", {
      "package.json": JSON.stringify({ name: "app", version: "1.0.0", dependencies: deps }),
      "package-lock.json": lock(deps),
    });
    const d = await dispatcher(root);
    process.env.npm_config_registry = `http://127.0.0.1:${closedPort}/`;
    process.env.npm_config_fetch_retries = "0";
    try {
      const { ecosystems } = await d.data<Advisories>("getSecurityAdvisories", {});
      expect(ecosystems).toEqual([
        {
          ecosystem: "npm",
          command: "npm audit --json",
          status: "failed",
          why: expect.stringMatching(/^`npm audit --json` failed: .+ run `npm audit --json` in a terminal/s),
          advisories: [],
        },
      ]);
    } finally {
      process.env.npm_config_registry = `http://127.0.0.1:${port}/`;
      delete process.env.npm_config_fetch_retries;
    }
  });
});
