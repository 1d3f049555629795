// ctx.http's redirect handling and the .http file parser: redirects are followed hop by hop, a 303
// becomes a GET without a body, credentials never follow a redirect to another origin; .http files
// come apart into requests with their variables filled in and nothing secret expanded.
import { mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createNodeRuntime } from "../../../runtime/node.ts";
import { parseHttpFile } from "../../../src/tools/commands/http-file.ts";
import type { PinnedFetchInit } from "../../../src/ports/net.ts";
import type { Runtime } from "../../../src/ports/runtime.ts";
import { dispatcher } from "../../helpers/tool-dispatch.ts";

let root: string;
beforeAll(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), "cib-http-")));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

function redirectingRuntime(seen: { url: string; init: PinnedFetchInit }[]): Runtime {
  const hosts: Record<string, string> = { "a.test": "93.184.216.34", "b.test": "93.184.216.35" };
  return {
    ...createNodeRuntime(),
    resolveHost: async (host) => (hosts[host] === undefined ? [] : [hosts[host] ?? ""]),
    async fetchPinned(url, init) {
      seen.push({ url, init });
      const path = new URL(url).pathname;
      if (path === "/post") return new Response(null, { status: 303, headers: { location: "/after" } });
      if (path === "/away") return new Response(null, { status: 302, headers: { location: "http://b.test/landing" } });
      if (path === "/loop") return new Response(null, { status: 302, headers: { location: "/loop" } });
      return new Response(`${init.method} ${path}`, { status: 200, headers: { "content-type": "text/plain" } });
    },
  };
}

describe("ctx.http redirects", () => {
  it("turns a 303 after a POST into a GET without a body", async () => {
    const seen: { url: string; init: PinnedFetchInit }[] = [];
    const d = await dispatcher(root, { runtime: redirectingRuntime(seen) });
    const text = await d.text("sendHttpRequest", {
      url: "http://a.test/post",
      method: "POST",
      body: "x=1",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(text).toMatch(/^HTTP 200/);
    expect(text).toContain("GET /after");
    expect(text).toContain("after 303 -> /after");
    expect(seen[1]?.init).toMatchObject({ method: "GET", address: "93.184.216.34" });
    expect(seen[1]?.init.body).toBeUndefined();
    expect(seen[1]?.init.headers?.["content-type"]).toBeUndefined();
  });

  it("drops credentials on a redirect to another origin and pins each hop to its own checked address", async () => {
    const seen: { url: string; init: PinnedFetchInit }[] = [];
    const d = await dispatcher(root, { runtime: redirectingRuntime(seen) });
    await d.text("sendHttpRequest", {
      url: "http://a.test/away",
      headers: { Authorization: "Bearer secret", Cookie: "s=1", "X-Keep": "yes" },
    });
    expect(seen.map((s) => [s.url, s.init.address])).toEqual([
      ["http://a.test/away", "93.184.216.34"],
      ["http://b.test/landing", "93.184.216.35"],
    ]);
    expect(seen[1]?.init.headers).toEqual({ "X-Keep": "yes" });
  });

  it("stops after five hops and returns the last redirect as it is; followRedirects: false returns the first", async () => {
    const seen: { url: string; init: PinnedFetchInit }[] = [];
    const d = await dispatcher(root, { runtime: redirectingRuntime(seen) });
    expect(await d.text("sendHttpRequest", { url: "http://a.test/loop" })).toMatch(/^HTTP 302/);
    expect(seen).toHaveLength(6);
    expect(await d.text("sendHttpRequest", { url: "http://a.test/loop", followRedirects: false })).toMatch(
      /^HTTP 302[\s\S]*location: \/loop/,
    );
  });
});

describe(".http files", () => {
  const FILE = [
    "@base = https://api.example.com",
    "@api = {{base}}/v1",
    "",
    "### List users",
    "# @name listUsers",
    "GET {{api}}/users",
    "    ?page=2",
    "    &size=10",
    "Accept: application/json",
    "",
    "###",
    "// a comment",
    "POST {{api}}/users HTTP/1.1",
    "Content-Type: application/json",
    "Authorization: Bearer {{$processEnv TOKEN}}",
    "",
    '{ "name": "{{$guid}}" }',
    "",
    "> {% client.global.set('id', response.body.id); %}",
    "",
    "###",
    "{{base}}/health",
  ].join("\n");

  it("splits requests, fills file variables, and leaves system and environment variables alone", () => {
    const parsed = parseHttpFile(FILE);
    expect(parsed.variables).toEqual({ base: "https://api.example.com", api: "https://api.example.com/v1" });
    expect(parsed.requests).toEqual([
      {
        name: "listUsers",
        line: 6,
        method: "GET",
        url: "https://api.example.com/v1/users?page=2&size=10",
        headers: { Accept: "application/json" },
        unresolved: [],
      },
      {
        line: 13,
        method: "POST",
        url: "https://api.example.com/v1/users",
        headers: { "Content-Type": "application/json", Authorization: "Bearer {{$processEnv TOKEN}}" },
        body: '{ "name": "{{$guid}}" }',
        unresolved: ["$processEnv TOKEN", "$guid"],
      },
      { line: 22, method: "GET", url: "https://api.example.com/health", headers: {}, unresolved: [] },
    ]);
  });

  it("is served by parseHttpFile from a workspace file", async () => {
    await writeFile(join(root, "api.http"), FILE);
    const d = await dispatcher(root);
    const parsed = await d.data<{ requests: unknown[] }>("parseHttpFile", { file: "api.http" });
    expect(parsed.requests).toHaveLength(3);
    expect((await d.failure("parseHttpFile", { file: "../etc/passwd" })).code).toBe("outside_workspace");
  });
});
