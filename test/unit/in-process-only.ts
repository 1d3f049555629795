// Setup file of the unit project (vitest.config.ts): unit tests are in-process only. A child process
// (git, rg, gh, a language server, the bridge, a racer, a shell) makes a test slow and, on a loaded
// 2-core machine, flaky; such tests belong in test/integration, whose timeouts allow for it.
//
// Every way node:child_process starts a process is replaced by one that throws. The CommonJS
// exports are patched and syncBuiltinESMExports() copies them to the ESM module, so
// `import { spawn } from "node:child_process"` sees the patch too (the setup file runs before the
// test file is imported). Code under test may catch the throw (a tool that falls back when its
// program cannot start), so every attempt is also recorded and fails the test in afterEach: the
// mistake cannot pass silently. Worker threads stay allowed: they are in-process.
import childProcess from "node:child_process";
import { syncBuiltinESMExports } from "node:module";
import { afterAll, afterEach } from "vitest";

export const IN_PROCESS_ONLY = "unit tests are in-process only: move this test to test/integration";

const STARTERS = ["spawn", "spawnSync", "exec", "execSync", "execFile", "execFileSync", "fork"] as const;

/** Attempts not yet reported, kept on globalThis so the test proving the guard sees the same list. */
const ATTEMPTS = Symbol.for("unit.childProcessAttempts");
const shared = globalThis as { [ATTEMPTS]?: string[] };
const attempts: string[] = shared[ATTEMPTS] ?? [];
shared[ATTEMPTS] = attempts;

/** The attempts recorded so far, cleared: for the test that proves the guard works. */
export function takeChildProcessAttempts(): string[] {
  return attempts.splice(0);
}

function refuse(how: string, args: readonly unknown[]): never {
  const program = typeof args[0] === "string" ? args[0] : "?";
  const argv = Array.isArray(args[1]) ? args[1].map(String) : [];
  const attempt = `${how}(${[program, ...argv].join(" ")})`;
  attempts.push(attempt);
  throw new Error(`${IN_PROCESS_ONLY} (it called child_process.${attempt})`);
}

// The module's exports object is writable at run time; its TypeScript type is not, so go through a record.
const moduleExports = childProcess as unknown as Record<string, unknown>;
for (const name of STARTERS) {
  moduleExports[name] = (...args: unknown[]) => refuse(name, args);
}
// The asynchronous starters end in ChildProcess#spawn, so code that builds a ChildProcess itself is
// caught here too. (It is not in Node's types, hence the record.)
const prototype = childProcess.ChildProcess.prototype as unknown as Record<string, unknown>;
prototype.spawn = (options?: { file?: unknown; args?: unknown }): never => refuse("ChildProcess#spawn", [options?.file, options?.args]);
syncBuiltinESMExports();

/** Fails the test when a child process was tried since the last check (the hook below). */
export function failOnChildProcessAttempts(): void {
  const found = takeChildProcessAttempts();
  if (found.length > 0) throw new Error(`${IN_PROCESS_ONLY}; it tried to start: ${found.join(", ")}`);
}

afterEach(failOnChildProcessAttempts);
// An attempt in beforeAll or afterAll (a fixture's setup) is reported once the file's tests are done.
afterAll(failOnChildProcessAttempts);
