// What a binary is by its content, on the real binaries of this machine, read in-process: the
// interpreters and shells the tests can find (this node, the bun and deno the project installs,
// python, bash, dash, perl) are recognised, under any name; the tools runCommand runs (git, the
// biome and esbuild binaries, go, rustup's cargo) are not; scripts and non-ELF files are left alone.
import { existsSync, realpathSync } from "node:fs";
import { open, stat } from "node:fs/promises";
import { delimiter, join } from "node:path";
import { describe, expect, it } from "vitest";
import { interpreterIdentity } from "../../../src/security/commands/elf-identity.ts";

async function identify(path: string): Promise<string | undefined> {
  const handle = await open(path, "r");
  try {
    const { size } = await stat(path);
    return await interpreterIdentity({
      size,
      async read(position, length) {
        const buffer = new Uint8Array(length);
        const { bytesRead } = await handle.read(buffer, 0, length, position);
        return buffer.subarray(0, bytesRead);
      },
    });
  } finally {
    await handle.close();
  }
}

/** The real file a program name leads to on PATH, or undefined. */
function onPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    const p = join(dir, name);
    if (existsSync(p)) return realpathSync(p);
  }
  return undefined;
}

const root = process.cwd();
/** Python's real binary: /usr/bin/python3.x, or the pyenv build a shim stands for. */
function pythonBinary(): string | undefined {
  const candidates = [
    onPath("python3"),
    "/usr/bin/python3",
    ...["3.13.0", "3.12.1", "3.11.7"].map((v) => `${process.env.HOME}/.pyenv/versions/${v}/bin/python3`),
  ];
  return candidates
    .map((c) => (c !== undefined && existsSync(c) ? realpathSync(c) : undefined))
    .find((c) => c !== undefined && !c.includes("/shims/"));
}

describe("interpreter identity by content", () => {
  const interpreters: [string, string | undefined][] = [
    ["node", process.execPath],
    ["bun", join(root, "node_modules", "bun", "bin", "bun.exe")],
    ["python", pythonBinary()],
    ["bash", "/bin/bash"],
    ["dash", existsSync("/bin/dash") ? "/bin/dash" : undefined],
    ["perl", onPath("perl")],
  ];
  it.each(interpreters.filter(([, p]) => p !== undefined))("recognises %s (%s)", async (_, path) => {
    expect(await identify(path ?? "")).toBeDefined();
  });

  it("finds node, bun, python, bash and perl on this machine (the cases above ran)", () => {
    expect(interpreters.filter(([name, p]) => p === undefined && name !== "dash")).toEqual([]);
  });

  const tools: [string, string | undefined][] = [
    ["git", onPath("git")],
    ["biome", join(root, "node_modules", "@biomejs", "cli-linux-x64", "biome")],
    ["esbuild", join(root, "node_modules", "@esbuild", "linux-x64", "bin", "esbuild")],
    ["go", onPath("go")],
    ["cargo", onPath("cargo")],
    ["a script", join(root, "node_modules", ".bin", "vitest")],
    ["a text file", join(root, "package.json")],
  ];
  it.each(tools.filter(([, p]) => p !== undefined && existsSync(p)))("does not take %s (%s) for one", async (_, path) => {
    expect(await identify(path ?? "")).toBeUndefined();
  });
});
