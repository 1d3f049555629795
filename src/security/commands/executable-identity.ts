// Check 6 of runCommand (src/security/commands/command-policy.ts): the file PATH gives for an allowed name must not
// be an interpreter in disguise. Four questions, cheapest first:
//   - its real name (symlinks resolved) is not an interpreter's ("eslint -> /bin/bash");
//   - it is not the same file (device and inode) as an interpreter found on PATH (a hard link);
//   - it is not a byte-for-byte copy of one (SHA-256, computed only when the sizes match);
//   - its content is not an interpreter's, whatever it is called and wherever it came from
//     (src/security/commands/elf-identity.ts: the libraries it is built on, the entry points it
//     exports, a shell's own strings). This is what catches a copy of a python that PATH does not
//     show (python3 on PATH is a pyenv shim) placed as node_modules/.bin/vitest.
// And it must not lie inside the workspace (a PATH entry pointing there would run whatever a tool
// wrote), except the project's own node_modules/.bin, which is looked up on purpose.
// Not judged: scripts' shebangs. npm, eslint and pytest are themselves scripts for node, python or
// bash; what matters is that the arguments go to the script, not to the interpreter.
import type { FileStat, Fs } from "../../ports/fs.ts";
import type { Runtime } from "../../ports/runtime.ts";
import { interpreterIdentity } from "./elf-identity.ts";
import { IDENTITY_PROBES, isNeverAllowed } from "./interpreters.ts";
import { basename, isInside } from "../../lib/paths/posix-path.ts";

interface IdentityDeps {
  fs: Pick<Fs, "realpath" | "stat" | "readFile" | "openFile">;
  which: Runtime["which"];
}

interface KnownInterpreter {
  name: string;
  path: string;
  stat: FileStat;
}

export interface IdentityCheck {
  /** Why `path` must not run, or undefined. */
  refusal(path: string, opts: { folders: readonly string[]; projectBin: boolean }): Promise<string | undefined>;
}

export function createIdentityCheck(deps: IdentityDeps): IdentityCheck {
  let known: Promise<KnownInterpreter[]> | undefined;
  const interpreters = () => (known ??= findInterpreters(deps));
  const digests = new Map<string, Promise<string>>();
  const digest = (path: string) => {
    let d = digests.get(path);
    if (d === undefined) {
      d = deps.fs.readFile(path).then(sha256);
      digests.set(path, d);
    }
    return d;
  };
  /** What each binary is, by content: keyed by device, inode, size and mtime, so a changed file is read again. */
  const identities = new Map<string, Promise<string | undefined>>();
  const identity = (real: string, stat: FileStat) => {
    const key = `${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeMs}`;
    let found = identities.get(key);
    if (found === undefined) {
      found = contentIdentity(deps.fs, real, stat);
      identities.set(key, found);
    }
    return found;
  };
  return {
    async refusal(path, opts) {
      const real = await deps.fs.realpath(path);
      if (isNeverAllowed(basename(real))) return `${path} is ${real}, an interpreter or shell`;
      if (!opts.projectBin && opts.folders.some((f) => isInside(real, f)))
        return `${path} lies inside the workspace (a PATH entry points into it)`;
      const stat = await deps.fs.stat(real);
      for (const interpreter of await interpreters()) {
        if (stat.dev === interpreter.stat.dev && stat.ino === interpreter.stat.ino)
          return `${path} is the same file as ${interpreter.path} (${interpreter.name})`;
        if (stat.size === interpreter.stat.size && (await digest(real)) === (await digest(interpreter.path)))
          return `${path} is a copy of ${interpreter.path} (${interpreter.name})`;
      }
      const what = await identity(real, stat);
      return what === undefined ? undefined : `${path} is ${what}, an interpreter or shell by its content`;
    },
  };
}

async function contentIdentity(fs: IdentityDeps["fs"], real: string, stat: FileStat): Promise<string | undefined> {
  const file = await fs.openFile(real);
  try {
    return await interpreterIdentity({ size: stat.size, read: (position, length) => file.read(position, length) });
  } finally {
    await file.close();
  }
}

async function findInterpreters(deps: IdentityDeps): Promise<KnownInterpreter[]> {
  const found = await Promise.all(
    IDENTITY_PROBES.map(async (name) => {
      try {
        const path = await deps.which(name);
        if (path === undefined) return [];
        const real = await deps.fs.realpath(path);
        return [{ name, path: real, stat: await deps.fs.stat(real) }];
      } catch {
        return [];
      }
    }),
  );
  const seen = new Set<string>();
  return found.flat().filter((i) => !seen.has(i.path) && seen.add(i.path));
}

async function sha256(bytes: Uint8Array): Promise<string> {
  // digest() wants an ArrayBuffer-backed view; a copy gives one whatever backs `bytes`.
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", new Uint8Array(bytes)));
  return [...hash].map((b) => b.toString(16).padStart(2, "0")).join("");
}
