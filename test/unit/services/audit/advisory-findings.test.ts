// The auditors' reports read advisory by advisory, on the shapes the real tools write: npm 10's
// audit --json (auditReportVersion 2), pnpm 9's audit --json (npm 6's advisories), pip-audit 2's
// -f json, cargo-audit 0.20's --json, govulncheck 1.1's -json stream, and the one Result object
// govulncheck wrote before 1.0 (the version Debian 12 ships; met for real in
// test/e2e/audit-govulncheck.test.ts, its shape here from its source at 4c848ed).
import { describe, expect, it } from "vitest";
import {
  cargoFindings,
  govulncheckFindings,
  govulncheckLegacyFindings,
  jsonStream,
  npm6Findings,
  npmFindings,
  pipFindings,
} from "../../../../src/services/audit/advisory-findings.ts";

describe("advisory findings", () => {
  it("npm 7+: one finding per advisory, the paths from the direct dependencies down, the fix npm offers", () => {
    const report = {
      auditReportVersion: 2,
      vulnerabilities: {
        minimist: {
          name: "minimist",
          severity: "critical",
          isDirect: false,
          via: [
            {
              source: 1096465,
              name: "minimist",
              dependency: "minimist",
              title: "Prototype Pollution in minimist",
              url: "https://github.com/advisories/GHSA-xvch-5gv4-984h",
              severity: "critical",
              cwe: ["CWE-1321"],
              cvss: { score: 9.8, vectorString: "CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H" },
              range: "<0.2.4",
            },
          ],
          effects: ["mkdirp"],
          range: "<=0.2.3",
          nodes: ["node_modules/minimist"],
          fixAvailable: { name: "mkdirp", version: "1.0.4", isSemVerMajor: true },
        },
        mkdirp: {
          name: "mkdirp",
          severity: "critical",
          isDirect: true,
          via: ["minimist"],
          effects: [],
          range: "0.4.1 - 0.5.1",
          nodes: ["node_modules/mkdirp"],
          fixAvailable: { name: "mkdirp", version: "1.0.4", isSemVerMajor: true },
        },
        lodash: {
          name: "lodash",
          severity: "high",
          isDirect: true,
          via: [
            {
              source: 1106913,
              name: "lodash",
              dependency: "lodash",
              title: "Command Injection in lodash",
              url: "https://github.com/advisories/GHSA-35jh-r3h4-6jhm",
              severity: "high",
              range: "<4.17.21",
            },
          ],
          effects: [],
          range: "<=4.17.20",
          nodes: ["node_modules/lodash"],
          fixAvailable: true,
        },
      },
      metadata: { vulnerabilities: { critical: 2, high: 1, total: 3 } },
    };
    expect(npmFindings(report)).toEqual([
      {
        id: "GHSA-xvch-5gv4-984h",
        package: "minimist",
        severity: "critical",
        title: "Prototype Pollution in minimist",
        url: "https://github.com/advisories/GHSA-xvch-5gv4-984h",
        vulnerable: "<0.2.4",
        paths: ["mkdirp > minimist"],
        fix: "mkdirp@1.0.4 (semver-major, npm audit fix --force)",
      },
      {
        id: "GHSA-35jh-r3h4-6jhm",
        package: "lodash",
        severity: "high",
        title: "Command Injection in lodash",
        url: "https://github.com/advisories/GHSA-35jh-r3h4-6jhm",
        vulnerable: "<4.17.21",
        paths: ["lodash"],
        fix: "npm audit fix",
      },
    ]);
  });

  it("npm 7+: a dependency cycle in effects ends its path instead of looping", () => {
    const vuln = (name: string, effects: string[], via: unknown[]) => ({ name, severity: "low", isDirect: false, via, effects });
    const report = {
      vulnerabilities: {
        a: vuln("a", ["b"], [{ source: 1, name: "a", title: "t", severity: "low", range: "*" }]),
        b: vuln("b", ["a"], ["a"]),
      },
    };
    expect(npmFindings(report)[0]?.paths).toEqual(["b > a"]);
  });

  it("pnpm (npm 6's report): installed versions, patched range and the paths pnpm found", () => {
    const report = {
      actions: [],
      advisories: {
        "1096465": {
          findings: [{ version: "0.0.8", paths: [".>mkdirp>minimist", ".>optimist>minimist"] }],
          id: 1096465,
          title: "Prototype Pollution in minimist",
          module_name: "minimist",
          vulnerable_versions: "<0.2.4",
          patched_versions: ">=0.2.4",
          severity: "critical",
          github_advisory_id: "GHSA-xvch-5gv4-984h",
          cves: ["CVE-2021-44906"],
          url: "https://github.com/advisories/GHSA-xvch-5gv4-984h",
        },
        "1": {
          findings: [{ version: "1.0.0", paths: ["left-pad"] }],
          id: 1,
          title: "Unpatched",
          module_name: "left-pad",
          vulnerable_versions: "*",
          patched_versions: "<0.0.0",
          severity: "moderate",
        },
      },
      metadata: { vulnerabilities: { critical: 1 } },
    };
    expect(npm6Findings(report)).toEqual([
      {
        id: "1",
        package: "left-pad",
        versions: ["1.0.0"],
        severity: "moderate",
        title: "Unpatched",
        vulnerable: "*",
        paths: ["left-pad"],
      },
      {
        id: "GHSA-xvch-5gv4-984h",
        package: "minimist",
        versions: ["0.0.8"],
        severity: "critical",
        title: "Prototype Pollution in minimist",
        url: "https://github.com/advisories/GHSA-xvch-5gv4-984h",
        vulnerable: "<0.2.4",
        fixedIn: [">=0.2.4"],
        paths: [". > mkdirp > minimist", ". > optimist > minimist"],
      },
    ]);
  });

  it("pip-audit and cargo-audit: the fixing versions, the first sentence of the description", () => {
    expect(
      pipFindings({
        dependencies: [
          {
            name: "jinja2",
            version: "2.4.1",
            vulns: [
              {
                id: "PYSEC-2019-217",
                fix_versions: ["2.10.1"],
                aliases: ["CVE-2019-10906"],
                description: "In Pallets Jinja before 2.10.1, str.format_map allows a sandbox escape. More text.",
              },
            ],
          },
          { name: "ok", version: "1", vulns: [] },
        ],
        fixes: [],
      }),
    ).toEqual([
      {
        id: "PYSEC-2019-217 / CVE-2019-10906",
        package: "jinja2",
        versions: ["2.4.1"],
        severity: "unknown",
        title: "In Pallets Jinja before 2.10.1, str.format_map allows a sandbox escape.",
        fixedIn: ["2.10.1"],
      },
    ]);
    expect(
      cargoFindings({
        database: { "advisory-count": 600 },
        vulnerabilities: {
          found: true,
          count: 1,
          list: [
            {
              advisory: {
                id: "RUSTSEC-2020-0071",
                package: "time",
                title: "Potential segfault in the time crate",
                url: "https://github.com/time-rs/time/issues/293",
              },
              versions: { patched: [">=0.2.23"], unaffected: ["=0.2.0"] },
              package: { name: "time", version: "0.1.45" },
            },
          ],
        },
        warnings: { unmaintained: [{ kind: "unmaintained", package: { name: "ansi_term" } }] },
      }),
    ).toEqual([
      {
        id: "RUSTSEC-2020-0071",
        package: "time",
        versions: ["0.1.45"],
        severity: "unknown",
        title: "Potential segfault in the time crate",
        url: "https://github.com/time-rs/time/issues/293",
        fixedIn: [">=0.2.23"],
      },
    ]);
    // Its aliases join the id; with no url of its own (often null), the advisory's page on rustsec.org.
    const aliased = {
      vulnerabilities: {
        list: [
          {
            advisory: { id: "RUSTSEC-2020-0071", title: "Potential segfault", aliases: ["CVE-2020-26235"], url: null },
            versions: { patched: [] },
            package: { name: "time", version: "0.1.45" },
          },
        ],
      },
    };
    expect(cargoFindings(aliased)).toEqual([
      {
        id: "RUSTSEC-2020-0071 / CVE-2020-26235",
        package: "time",
        versions: ["0.1.45"],
        severity: "unknown",
        title: "Potential segfault",
        url: "https://rustsec.org/advisories/RUSTSEC-2020-0071",
      },
    ]);
  });

  it("govulncheck: the stream split into messages, call paths for the symbols called, the rest imported only", () => {
    const stream = [
      '{"config":{"protocol_version":"v1.0.0","scanner_name":"govulncheck","scan_level":"symbol"}}',
      '{"progress":{"message":"Scanning your code and 46 packages across 1 dependent module for known vulnerabilities..."}}',
      JSON.stringify({
        osv: {
          id: "GO-2021-0113",
          summary: "Out-of-bounds read in golang.org/x/text/language",
          aliases: ["CVE-2021-38561"],
          database_specific: { url: "https://pkg.go.dev/vuln/GO-2021-0113" },
        },
      }),
      JSON.stringify({ osv: { id: "GO-2022-1059", summary: "Denial of service via crafted Accept-Language header" } }),
      JSON.stringify({
        finding: {
          osv: "GO-2021-0113",
          fixed_version: "v0.3.7",
          trace: [
            { module: "golang.org/x/text", version: "v0.3.0", package: "golang.org/x/text/language", function: "Parse" },
            { module: "example.com/app", package: "example.com/app", function: "main", position: { line: 9 } },
          ],
        },
      }),
      JSON.stringify({
        finding: { osv: "GO-2022-1059", fixed_version: "v0.3.8", trace: [{ module: "golang.org/x/text", version: "v0.3.0" }] },
      }),
    ].join("\n");
    const messages = jsonStream(`${stream}\n{"cut":`);
    expect(messages).toHaveLength(6);
    expect(govulncheckFindings(messages)).toEqual([
      {
        id: "GO-2021-0113",
        package: "golang.org/x/text",
        versions: ["v0.3.0"],
        severity: "unknown",
        title: "Out-of-bounds read in golang.org/x/text/language",
        url: "https://pkg.go.dev/vuln/GO-2021-0113",
        fixedIn: ["v0.3.7"],
        paths: ["calls: example.com/app.main > golang.org/x/text/language.Parse"],
      },
      {
        id: "GO-2022-1059",
        package: "golang.org/x/text",
        versions: ["v0.3.0"],
        severity: "unknown",
        title: "Denial of service via crafted Accept-Language header",
        fixedIn: ["v0.3.8"],
        paths: ["imported, not called"],
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
