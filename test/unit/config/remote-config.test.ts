// The remote-access flags: on only with TLS or a public https issuer URL; a non-loopback bind is
// refused without them, with what to do instead; the flags that go together are checked together.
import { describe, expect, it } from "vitest";
import { parseCli, type CliFlags } from "../../../src/config/cli.ts";
import { resolveConfig, type ConfigSources } from "../../../src/config/load.ts";
import { BridgeError } from "../../../src/errors.ts";

const src: ConfigSources = {
  cwd: "/home/me/project",
  env: {},
  readConfigFile: async (path) => {
    if (path === "/etc/remote.json")
      return JSON.stringify({ issuerUrl: "https://ide.example.com/bridge/", corsOrigins: ["https://app.example.org"], oauthTokenTtl: 600 });
    throw Object.assign(new Error("ENOENT"), { code: "ENOENT" });
  },
};

function cli(argv: string[]): CliFlags {
  const result = parseCli(argv);
  if (result.kind !== "run") throw new Error("expected run");
  return result.flags;
}

async function refusal(argv: string[]): Promise<string> {
  const err = await resolveConfig(cli(argv), src).then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(err instanceof BridgeError)) throw new Error(`expected a config error for ${argv.join(" ")}`);
  expect(err.code).toBe("config_invalid");
  return err.message;
}

describe("remote access configuration", () => {
  it("is off by default, and a non-loopback bind is then refused with the way out", async () => {
    expect((await resolveConfig(cli([]), src)).remote.tls).toBeUndefined();
    for (const bind of ["0.0.0.0", "::", "192.168.1.20", "ide.example.com"]) {
      const message = await refusal(["--bind", bind]);
      expect(message).toContain(`--bind ${bind} would serve the bridge to the network over plain HTTP`);
      expect(message).toContain("--tls-cert");
      expect(message).toContain("--issuer-url");
    }
    for (const bind of ["127.0.0.1", "::1", "localhost", "127.0.0.2"])
      expect((await resolveConfig(cli(["--bind", bind]), src)).bind).toBe(bind);
  });

  it("takes TLS files (resolved against the cwd) and allows a non-loopback bind with them", async () => {
    const config = await resolveConfig(cli(["--tls-cert", "certs/c.pem", "--tls-key=/k.pem", "--bind", "192.168.1.20"]), src);
    expect(config.remote.tls).toEqual({ certFile: "/home/me/project/certs/c.pem", keyFile: "/k.pem" });
    expect(config.remote.issuerUrl).toBeUndefined();
    expect(await refusal(["--tls-cert", "c.pem"])).toContain("--tls-cert and --tls-key go together");
    expect(await refusal(["--tls-cert", "c.pem", "--tls-key", "k.pem", "--bind", "0.0.0.0"])).toContain("--issuer-url https://<that name>");
  });

  it("takes an https issuer URL (behind a proxy), trailing slash dropped; never http, a query or a fragment", async () => {
    const config = await resolveConfig(cli(["--issuer-url", "https://ide.example.com/bridge/", "--bind", "0.0.0.0"]), src);
    expect(config.remote.issuerUrl).toBe("https://ide.example.com/bridge");
    expect(await refusal(["--issuer-url", "http://ide.example.com"])).toContain("must be https");
    expect(await refusal(["--issuer-url", "https://ide.example.com/?a=1"])).toContain("no query, fragment or credentials");
    expect(await refusal(["--issuer-url", "not a url"])).toContain("is not a URL");
  });

  it("takes an identity provider as three flags together, with an https (or loopback) JWKS URL", async () => {
    const idp = [
      "--oauth-jwks-url",
      "https://sso.example.com/jwks",
      "--oauth-issuer",
      "https://sso.example.com",
      "--oauth-audience",
      "bridge",
    ];
    const config = await resolveConfig(cli(["--issuer-url", "https://ide.example.com", ...idp]), src);
    expect(config.remote.identityProvider).toEqual({
      jwksUrl: "https://sso.example.com/jwks",
      issuer: "https://sso.example.com",
      audience: "bridge",
    });
    expect(await refusal(["--issuer-url", "https://ide.example.com", ...idp.slice(0, 4)])).toContain("needs all three");
    expect(await refusal(idp)).toContain("need remote access");
    const plain = ["--issuer-url", "https://ide.example.com", "--oauth-jwks-url", "http://sso.example.com/jwks", ...idp.slice(2)];
    expect(await refusal(plain)).toContain("must be https");
    const loopback = ["--issuer-url", "https://ide.example.com", "--oauth-jwks-url", "http://127.0.0.1:9/jwks", ...idp.slice(2)];
    expect((await resolveConfig(cli(loopback), src)).remote.identityProvider?.jwksUrl).toBe("http://127.0.0.1:9/jwks");
  });

  it("takes CORS origins as origins only, a token lifetime within bounds, and all of it from a config file", async () => {
    expect(
      (await resolveConfig(cli(["--cors-origin", "https://a.example.org", "--cors-origin=http://localhost:5173"]), src)).remote.corsOrigins,
    ).toEqual(["https://a.example.org", "http://localhost:5173"]);
    expect(await refusal(["--cors-origin", "https://a.example.org/path"])).toContain("takes a browser origin");
    expect(() => cli(["--oauth-token-ttl", "30"])).toThrow(/60-86400/);
    const fromFile = await resolveConfig({ configPath: "/etc/remote.json" }, src);
    expect(fromFile.remote).toMatchObject({
      issuerUrl: "https://ide.example.com/bridge",
      corsOrigins: ["https://app.example.org"],
      tokenTtlSeconds: 600,
    });
  });
});
