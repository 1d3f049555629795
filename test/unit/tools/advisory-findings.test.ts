// The auditors' reports getSecurityAdvisories reads, in the shapes the tools write. govulncheck is met
// for real in test/e2e/audit-govulncheck.test.ts and npm in test/e2e/audit-dependencies.test.ts; the
// ones no registry this project reaches installs are recorded here from the tools' own documentation
// and sources: cargo audit --json (rustsec's `Report`, serialized with its kebab-case database
// fields), pip-audit -f json (its README's "dependencies"/"fixes" object), pnpm audit --json (npm 6's
// audit report, `advisories` by id with their findings' paths).
import { describe, expect, it } from "vitest";
import {
  cargoFindings,
  govulncheckLegacyFindings,
  jsonStream,
  npm6Findings,
  pipFindings,
} from "../../../src/services/audit/advisory-findings.ts";

describe("advisory reports as the auditors write them", () => {
  it("cargo audit --json: the vulnerabilities, with aliases and the advisory's page when its own url is null", () => {
    const report = {
      database: { "advisory-count": 540, "last-commit": "9b35ea1", "last-updated": "2023-03-01T12:00:00Z" },
      lockfile: { "dependency-count": 42 },
      settings: { target_arch: null, target_os: null, severity: null, ignore: [], informational_warnings: ["unmaintained"] },
      vulnerabilities: {
        found: true,
        count: 1,
        list: [
          {
            advisory: {
              id: "RUSTSEC-2020-0071",
              package: "time",
              title: "Potential segfault in the time crate",
              description: "Unix-like operating systems may segfault...",
              date: "2020-11-18",
              aliases: ["CVE-2020-26235", "GHSA-wcg3-cvx6-7396"],
              related: [],
              collection: "crates",
              categories: ["code-execution", "memory-corruption"],
              keywords: ["segfault"],
              cvss: "CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:N/I:N/A:H",
              informational: null,
              references: [],
              source: null,
              url: null,
              withdrawn: null,
              license: "CC0-1.0",
            },
            versions: { patched: [">=0.2.23"], unaffected: ["=0.2.0", "=0.2.1"] },
            affected: { arch: [], os: [], functions: { "time::at": ["<0.2.23"] } },
            package: { name: "time", version: "0.1.45", source: "registry+https://github.com/rust-lang/crates.io-index" },
          },
        ],
      },
      warnings: {
        unmaintained: [{ kind: "unmaintained", package: { name: "ansi_term", version: "0.12.1" }, advisory: { id: "RUSTSEC-2021-0139" } }],
      },
    };
    expect(cargoFindings(report)).toEqual([
      {
        id: "RUSTSEC-2020-0071 / CVE-2020-26235 / GHSA-wcg3-cvx6-7396",
        package: "time",
        versions: ["0.1.45"],
        severity: "unknown",
        title: "Potential segfault in the time crate",
        url: "https://rustsec.org/advisories/RUSTSEC-2020-0071",
        fixedIn: [">=0.2.23"],
      },
    ]);
  });

  it("pip-audit -f json: each vulnerable dependency's advisories with their fixes, the skipped ones left out", () => {
    const report = {
      dependencies: [
        {
          name: "flask",
          version: "0.5",
          vulns: [
            {
              id: "PYSEC-2019-179",
              fix_versions: ["1.0"],
              aliases: ["CVE-2019-1010083"],
              description:
                "The Pallets Project Flask before 1.0 is affected by: unexpected memory usage. The impact is: denial of service.",
            },
          ],
        },
        { name: "jinja2", version: "3.1.4", vulns: [] },
        { name: "mylib", skip_reason: "Dependency not found on PyPI and could not be audited: mylib (0.1)" },
      ],
      fixes: [],
    };
    expect(pipFindings(report)).toEqual([
      {
        id: "PYSEC-2019-179 / CVE-2019-1010083",
        package: "flask",
        versions: ["0.5"],
        severity: "unknown",
        title: "The Pallets Project Flask before 1.0 is affected by: unexpected memory usage.",
        fixedIn: ["1.0"],
      },
    ]);
  });

  it("pnpm audit --json: npm 6's advisories by id, with the installed versions and dependency paths", () => {
    const report = {
      actions: [],
      advisories: {
        "1096465": {
          findings: [{ version: "0.0.8", paths: ["mkdirp>minimist", ".>minimist"] }],
          id: 1096465,
          title: "Prototype Pollution in minimist",
          module_name: "minimist",
          vulnerable_versions: "<0.2.4",
          patched_versions: ">=0.2.4",
          severity: "critical",
          cwe: ["CWE-1321"],
          github_advisory_id: "GHSA-xvch-5gv4-984h",
          url: "https://github.com/advisories/GHSA-xvch-5gv4-984h",
        },
      },
      muted: [],
      metadata: { vulnerabilities: { info: 0, low: 0, moderate: 0, high: 0, critical: 1 }, dependencies: 3, totalDependencies: 3 },
    };
    expect(npm6Findings(report)).toEqual([
      {
        id: "GHSA-xvch-5gv4-984h",
        package: "minimist",
        versions: ["0.0.8"],
        severity: "critical",
        title: "Prototype Pollution in minimist",
        url: "https://github.com/advisories/GHSA-xvch-5gv4-984h",
        vulnerable: "<0.2.4",
        fixedIn: [">=0.2.4"],
        paths: ["mkdirp > minimist", ". > minimist"],
      },
    ]);
  });

  it("govulncheck before 1.0: one Result object, Go's field names, call stacks from the entry point", () => {
    const [result] = jsonStream(
      JSON.stringify({
        Vulns: [
          {
            OSV: {
              id: "GO-2022-0969",
              aliases: ["CVE-2022-27664"],
              details: "HTTP/2 server connections can hang forever. More text.",
              affected: [{ package: { name: "stdlib" }, database_specific: { url: "https://pkg.go.dev/vuln/GO-2022-0969" } }],
            },
            Modules: [
              {
                Path: "stdlib",
                FoundVersion: "v1.18.0",
                FixedVersion: "v1.18.6",
                Packages: [
                  {
                    Path: "net/http",
                    CallStacks: [
                      {
                        Symbol: "Server.ListenAndServe",
                        Frames: [
                          { PkgPath: "example.com/app", FuncName: "main" },
                          { PkgPath: "net/http", RecvType: "*Server", FuncName: "ListenAndServe" },
                        ],
                      },
                    ],
                  },
                ],
              },
            ],
          },
          {
            OSV: { id: "GO-2021-0113", details: "x" },
            Modules: [{ Path: "golang.org/x/text", FoundVersion: "v0.3.5", Packages: [{ Path: "golang.org/x/text/language" }] }],
          },
        ],
      }),
    );
    expect(govulncheckLegacyFindings(result as Record<string, unknown>)).toEqual([
      {
        id: "GO-2022-0969 / CVE-2022-27664",
        package: "stdlib",
        versions: ["v1.18.0"],
        severity: "unknown",
        title: "HTTP/2 server connections can hang forever.",
        url: "https://pkg.go.dev/vuln/GO-2022-0969",
        fixedIn: ["v1.18.6"],
        paths: ["calls: example.com/app.main > net/http.*Server.ListenAndServe"],
      },
      {
        id: "GO-2021-0113",
        package: "golang.org/x/text",
        versions: ["v0.3.5"],
        severity: "unknown",
        title: "x",
        paths: ["imported, not called: golang.org/x/text/language"],
      },
    ]);
  });
});
