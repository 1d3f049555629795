// The manifest is checked before any plugin code runs; each bad one is refused with the field named.
import { describe, expect, it } from "vitest";
import { compareVersions, parseManifest } from "../../../src/plugins/manifest.ts";

const GOOD = {
  schemaVersion: 1,
  name: "my-plugin",
  version: "1.2.3",
  entrypoint: "dist/index.mjs",
  toolNamePrefix: "my",
  minBridgeVersion: "0.1.0",
};

describe("parseManifest", () => {
  it("accepts a good manifest, with an optional description", () => {
    expect(parseManifest(JSON.stringify(GOOD))).toEqual({ ok: true, manifest: GOOD });
    expect(parseManifest(JSON.stringify({ ...GOOD, name: "@acme/tools", description: "Acme's tools" })).ok).toBe(true);
  });

  it.each([
    ["not JSON", "{", /not valid JSON/],
    ["an array", "[]", /must hold a JSON object/],
    ["schemaVersion 2", { ...GOOD, schemaVersion: 2 }, /field "schemaVersion" must be 1, got 2/],
    ["no name", { ...GOOD, name: undefined }, /missing field "name"/],
    ["an upper-case name", { ...GOOD, name: "MyPlugin" }, /field "name" must be an npm-style name/],
    ["a version that is not semver", { ...GOOD, version: "one" }, /field "version" must be a semantic version/],
    [
      "an entrypoint leaving the plugin",
      { ...GOOD, entrypoint: "../elsewhere.mjs" },
      /field "entrypoint" must be a relative path inside the plugin/,
    ],
    ["an absolute entrypoint", { ...GOOD, entrypoint: "/etc/x.mjs" }, /field "entrypoint"/],
    ["an entrypoint that is not a module", { ...GOOD, entrypoint: "index.json" }, /field "entrypoint"/],
    ["a one-letter prefix", { ...GOOD, toolNamePrefix: "m" }, /field "toolNamePrefix" must be 2-20 letters/],
    ["a prefix starting with a digit", { ...GOOD, toolNamePrefix: "9ers" }, /field "toolNamePrefix"/],
    ["a prefix of 21 chars", { ...GOOD, toolNamePrefix: "a".repeat(21) }, /field "toolNamePrefix"/],
    ["a prefix with a dash", { ...GOOD, toolNamePrefix: "my-tools" }, /field "toolNamePrefix"/],
    ["no minBridgeVersion", { ...GOOD, minBridgeVersion: undefined }, /missing field "minBridgeVersion"/],
    [
      "a newer minBridgeVersion",
      { ...GOOD, minBridgeVersion: "99.0.0" },
      /minBridgeVersion is 99\.0\.0, but this bridge is .*update claude-ide-bridge/,
    ],
    ["an unknown field", { ...GOOD, main: "x.js" }, /unknown field "main" \(allowed: schemaVersion, name/],
    ["a number for a string", { ...GOOD, version: 1 }, /field "version" must be a string, got 1/],
  ])("refuses %s, naming the field", (_case, manifest, error) => {
    const result = parseManifest(typeof manifest === "string" ? manifest : JSON.stringify(manifest));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatch(error);
  });
});

describe("compareVersions", () => {
  it("orders major.minor.patch numerically", () => {
    expect(compareVersions("0.10.0", "0.9.9")).toBe(1);
    expect(compareVersions("1.0.0", "1.0.0")).toBe(0);
    expect(compareVersions("1.0.0-beta.1", "1.0.1")).toBe(-1);
  });
});
