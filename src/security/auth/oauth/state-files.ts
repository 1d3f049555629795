// The authorization server's state on disk: signing keys, registered clients and grants, as JSON
// files readable by the owner only (directory 0700, files 0600), each written atomically. One
// directory per issuer (`<state root>/<issuer as a name>`), recorded in issuer.json, so bridges
// with different public URLs never share keys or grants.
import { BridgeError, errorMessage, fsErrorCode } from "../../../errors.ts";
import type { Fs } from "../../../ports/fs.ts";
import { join } from "../../../lib/paths/posix-path.ts";

export type StateFileName = "keys.json" | "clients.json" | "grants.json";

export interface StateFiles {
  readonly dir: string;
  /** The parsed file, or undefined when it does not exist yet. A corrupt file throws. */
  read(name: StateFileName): Promise<unknown>;
  write(name: StateFileName, value: unknown): Promise<void>;
}

/** `issuer` as a directory name: https://host:8443/prefix -> host_8443_prefix. */
export function issuerDirName(issuer: string): string {
  return issuer
    .replace(/^https?:\/\//, "")
    .replace(/[^A-Za-z0-9.-]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .slice(0, 120);
}

export async function openStateFiles(fs: Fs, opts: { root: string; issuer: string }): Promise<StateFiles> {
  const dir = join(opts.root, issuerDirName(opts.issuer));
  await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  // mkdir's mode does not apply to a directory that existed; the files' secrecy depends on it.
  await fs.chmod(dir, 0o700);
  const marker = join(dir, "issuer.json");
  const recorded = await readJson(fs, marker);
  if (recorded === undefined) await fs.writeFileAtomic(marker, `${JSON.stringify({ issuer: opts.issuer })}\n`, { mode: 0o600 });
  else if (typeof recorded !== "object" || recorded === null || !("issuer" in recorded) || recorded.issuer !== opts.issuer)
    throw new BridgeError(
      "startup_failed",
      `${marker} belongs to another issuer (${JSON.stringify(recorded).slice(0, 200)}); move it away`,
    );
  return {
    dir,
    read: (name) => readJson(fs, join(dir, name)),
    write: (name, value) => fs.writeFileAtomic(join(dir, name), `${JSON.stringify(value, null, 1)}\n`, { mode: 0o600 }),
  };
}

/** Every state directory under `root`, with its issuer (for `claude-ide-bridge oauth list`). */
export async function listStateDirs(fs: Fs, root: string): Promise<{ dir: string; issuer: string }[]> {
  const entries = await fs.readdir(root).catch(() => []);
  const found: { dir: string; issuer: string }[] = [];
  for (const entry of entries) {
    if (!entry.isDirectory) continue;
    const dir = join(root, entry.name);
    const recorded = await readJson(fs, join(dir, "issuer.json")).catch(() => undefined);
    if (typeof recorded === "object" && recorded !== null && "issuer" in recorded && typeof recorded.issuer === "string")
      found.push({ dir, issuer: recorded.issuer });
  }
  return found;
}

async function readJson(fs: Fs, path: string): Promise<unknown> {
  let text: string;
  try {
    text = await fs.readTextFile(path);
  } catch (err) {
    if (fsErrorCode(err) === "ENOENT") return undefined;
    throw err;
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new BridgeError("startup_failed", `${path} is not valid JSON (${errorMessage(err)}); fix or remove it`, { cause: err });
  }
}
