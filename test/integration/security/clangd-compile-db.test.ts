// A compile_commands.json is the workspace's, so the model can write one: its command may name any
// compiler and flags that load code into a compiler (`-Xclang -load`, `-fplugin=`). clangd runs the
// compiler only for drivers its --query-driver globs allow, and clears frontend plugins, so with the
// arguments the bridge starts it with (src/lsp/launch-options.ts) neither runs. The control: gcc
// loads the same plugin, and clangd given a matching --query-driver runs the same driver.
// A .clangd is the workspace's too: one whose CompilationDatabase names a folder outside makes clangd
// load that database (and write its background index beside it); with the bridge's guard
// (src/lsp/clangd-config-guard.ts) clangd reads no project config, and the control loads it.
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { chmod, mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createNodeRuntime } from "../../../runtime/node.ts";
import { guardClangdConfig } from "../../../src/lsp/clangd-config-guard.ts";
import { launchArgsFor } from "../../../src/lsp/launch-options.ts";
import { BUILT_IN_SERVERS } from "../../../src/lsp/server-specs.ts";

const run = promisify(execFile);
let base: string;
let ws: string;
const marker = (name: string) => join(base, `marker-${name}`);

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), "cib-clangd-db-")));
  ws = join(base, "ws");
  await mkdir(ws);
  await writeFile(
    join(base, "plug.c"),
    `#include <stdio.h>\n__attribute__((constructor)) static void ran(void) { FILE *f = fopen("${marker("plugin")}", "w"); if (f) fclose(f); }\n`,
  );
  await run("gcc", ["-shared", "-fPIC", "-o", join(base, "plug.so"), join(base, "plug.c")]);
  const driver = join(base, "evilcc");
  await writeFile(driver, `#!/bin/sh\ntouch ${marker("driver")}\nexec gcc "$@"\n`);
  await chmod(driver, 0o755);
  await writeFile(join(ws, "a.c"), "int main(void) { return 0; }\n");
  const plugin = join(base, "plug.so");
  const args = [driver, "-Xclang", "-load", "-Xclang", plugin, `-fplugin=${plugin}`, "-c", "a.c"];
  await writeFile(join(ws, "compile_commands.json"), JSON.stringify([{ directory: ws, file: "a.c", arguments: args }]));
}, 60_000);

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

describe("clangd and a hostile compile_commands.json", () => {
  it("runs neither the named compiler nor its plugins with the bridge's arguments; the control does", async () => {
    const spec = BUILT_IN_SERVERS.find((s) => s.id === "clangd");
    if (spec === undefined) throw new Error("no clangd spec");
    const bridgeArgs = await launchArgsFor(spec, ws, { fs: createNodeRuntime().fs });
    expect(bridgeArgs.some((a) => a.startsWith("--query-driver"))).toBe(false);
    // --check parses the file as the server would, with the same flags, and exits.
    const checked = await run("clangd", [...bridgeArgs, "--check=a.c"], { cwd: ws, timeout: 60_000 }).then(
      () => 0,
      (err: { code?: number }) => err.code ?? 1,
    );
    expect(checked).toBe(0);
    expect(existsSync(marker("driver"))).toBe(false);
    expect(existsSync(marker("plugin"))).toBe(false);

    // Controls: the plugin is live, and so is the driver once clangd is allowed to query it.
    await run("gcc", [`-fplugin=${join(base, "plug.so")}`, "-fsyntax-only", "a.c"], { cwd: ws }).catch(() => {});
    expect(existsSync(marker("plugin"))).toBe(true);
    await run("clangd", ["--log=error", `--query-driver=${base}/*`, "--check=a.c"], { cwd: ws, timeout: 60_000 }).catch(() => {});
    expect(existsSync(marker("driver"))).toBe(true);
  }, 120_000);
});

describe("clangd and a hostile .clangd", () => {
  it("a CompilationDatabase outside the workspace is not obeyed with the bridge's arguments; the control loads it", async () => {
    const work = join(base, "cfg-ws");
    const outside = join(base, "outside-db");
    await mkdir(work);
    await mkdir(outside);
    await writeFile(join(work, "a.c"), "#ifdef FROM_OUTSIDE\n#error the outside database was used\n#endif\nint main(void) { return 0; }\n");
    const entry = { directory: work, file: join(work, "a.c"), arguments: ["cc", "-DFROM_OUTSIDE", "-c", "a.c"] };
    await writeFile(join(outside, "compile_commands.json"), JSON.stringify([entry]));
    await writeFile(join(work, ".clangd"), "CompileFlags:\n  CompilationDatabase: ../outside-db\n");
    const spec = BUILT_IN_SERVERS.find((s) => s.id === "clangd");
    if (spec === undefined) throw new Error("no clangd spec");
    const fs = createNodeRuntime().fs;
    const guarded = await guardClangdConfig(await launchArgsFor(spec, work, { fs }), work, fs);
    expect(guarded.args).toContain("--enable-config=false");
    expect(guarded.warnings.join("\n")).toMatch(/\.clangd sets CompilationDatabase to "\.\.\/outside-db", outside the workspace/);
    const exit = (args: string[]) =>
      run("clangd", args, { cwd: work, timeout: 60_000 }).then(
        () => 0,
        (err: { code?: number }) => err.code ?? 1,
      );
    // --check exits non-zero when the file has errors: here, only when the outside database was used.
    expect(await exit([...guarded.args, "--check=a.c"])).toBe(0);
    expect(await exit(["--log=error", "--check=a.c"])).not.toBe(0);
  }, 120_000);
});
