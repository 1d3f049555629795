// vitest globalSetup: the whole run gets one temporary directory of its own (TMPDIR, which
// os.tmpdir(), git, language servers, bun and deno all follow), removed when the run ends. Tests
// remove what they make themselves, but one that times out may never reach its finally, and the
// programs it starts (typescript-language-server's cancellation directories, bridges' logs) write
// where they please under TMPDIR: this catches all of it. A run killed before its teardown leaves
// its directory; the next run removes those whose vitest process is gone.
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const PREFIX = "cib-tests-";
/** Set by the project that made the directory; the other projects' setups (one each) reuse it. */
const MARK = "CLAUDE_IDE_BRIDGE_TEST_TMPDIR";

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as { code?: string }).code === "EPERM";
  }
}

function removeAbandoned(parent: string): void {
  for (const name of readdirSync(parent)) {
    const pid = Number(new RegExp(`^${PREFIX}(\\d+)-`).exec(name)?.[1]);
    if (Number.isInteger(pid) && pid !== process.pid && !alive(pid)) rmSync(join(parent, name), { recursive: true, force: true });
  }
}

export default function setup(): (() => void) | undefined {
  if (process.env[MARK] !== undefined) return undefined;
  const parent = tmpdir();
  removeAbandoned(parent);
  const dir = mkdtempSync(join(parent, `${PREFIX}${process.pid}-`));
  process.env[MARK] = dir;
  process.env.TMPDIR = dir;
  return () => {
    rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
    process.env.TMPDIR = parent;
    delete process.env[MARK];
  };
}
