// doctor's checks of the runtime and the bridge side: the bridge for this directory (running,
// healthy, its token accepted), the lock directory and files (modes, fields, stale ones), and
// whether each live bridge's port answers.
import { errorMessage } from "../errors.ts";
import { lockDir } from "../lock/lock-file.ts";
import { folderContains } from "../lock/lock-selection.ts";
import type { Runtime } from "../ports/runtime.ts";
import { chooseLock, PROBLEMS, type BridgeLock } from "./bridge-locks.ts";
import { type Check, probeDeadline } from "./doctor-report.ts";
import { pluginChecks } from "./doctor-plugins.ts";
import { automationChecks } from "./doctor-automation.ts";
import { runningServerChecks } from "./doctor-lsp.ts";
import { extensionConnectionCheck } from "./doctor-extension.ts";

// A healthy bridge answers /health in milliseconds, but on a busy machine (a build or a test run
// beside it, load 20+ on two cores) it took over 2 s: doctor then called a working bridge dead.
const HTTP_TIMEOUT_MS = 5_000;
const MIN_NODE_MAJOR = 20;

export function runtimeCheck(runtime: Pick<Runtime, "name">, version: string): Check {
  const major = Number(version.split(".")[0]);
  if (runtime.name === "node" && !(major >= MIN_NODE_MAJOR)) {
    return {
      area: "runtime",
      status: "fail",
      summary: `node ${version}`,
      fix: `install Node ${MIN_NODE_MAJOR} or newer (or run with bun or deno)`,
    };
  }
  return { area: "runtime", status: "ok", summary: `${runtime.name} ${version}` };
}

/** `cwd` is a realpath, as locks name directories. */
export async function bridgeChecks(
  runtime: Runtime,
  locks: readonly BridgeLock[],
  opts: { cwd: string; root: string; shim: string; cli: string; signal?: AbortSignal },
): Promise<Check[]> {
  const bridges = locks.filter((l) => l.lock.isBridge && l.problem === undefined);
  const chosen = await chooseLock(runtime, bridges, { cwd: opts.cwd });
  if (chosen === undefined) {
    return [
      {
        area: "bridge",
        status: "info",
        summary: `none runs for ${opts.cwd}; the shim starts one when Claude Code connects`,
        fix: `or start one yourself: ${opts.cli} --workspace ${opts.root}`,
      },
    ];
  }
  const checks: Check[] = [];
  const serving = bridges.filter((b) => b.lock.workspaceFolders.some((f) => folderContains(f, opts.cwd)));
  if (serving.length > 1) {
    checks.push({
      area: "bridge",
      status: "warn",
      summary: `${serving.length} bridges serve this directory (ports ${serving.map((b) => b.port).join(", ")}); clients use port ${chosen.port}, the newest`,
      fix: `stop the others: ${serving
        .filter((b) => b !== chosen)
        .map((b) => `${opts.cli} stop --port ${b.port}`)
        .join("; ")}`,
    });
  }
  const who = `port ${chosen.port}, pid ${chosen.lock.pid ?? "?"}, workspace ${chosen.lock.workspace ?? chosen.lock.workspaceFolders.join(", ")}`;
  try {
    const response = await fetch(`http://127.0.0.1:${chosen.port}/health`, {
      headers: { authorization: `Bearer ${chosen.lock.authToken}` },
      signal: probeDeadline(HTTP_TIMEOUT_MS, opts.signal),
    });
    const body: unknown = await response.json().catch(() => undefined);
    if (response.status === 401) {
      checks.push({
        area: "bridge",
        status: "fail",
        summary: `${who}: its lock's token is refused (HTTP 401)`,
        fix: `another program may hold that port; ${opts.cli} stop --port ${chosen.port}, or remove ${chosen.path}`,
      });
    } else if (response.ok && typeof body === "object" && body !== null && "status" in body && body.status === "ok") {
      const version = "version" in body ? String(body.version) : "?";
      checks.push({ area: "bridge", status: "ok", summary: `${who}: healthy, token accepted (version ${version})` });
      checks.push(extensionConnectionCheck(body as Record<string, unknown>));
      checks.push(...pluginChecks(body as Record<string, unknown>, { cli: opts.cli }));
      checks.push(...runningServerChecks(body as Record<string, unknown>, { cli: opts.cli }));
      checks.push(...automationChecks(body as Record<string, unknown>));
    } else {
      checks.push({
        area: "bridge",
        status: "fail",
        summary: `${who}: /health answered HTTP ${response.status}`,
        fix: `restart it: ${opts.cli} stop --port ${chosen.port}`,
      });
    }
  } catch (err) {
    checks.push({
      area: "bridge",
      status: "fail",
      summary: `${who}: does not answer /health within ${HTTP_TIMEOUT_MS / 1000} s (${errorMessage(err)})`,
      fix: `restart it: ${opts.cli} stop --port ${chosen.port}, then ${opts.shim}`,
    });
  }
  return checks;
}

/** The lock directory's mode, each lock's mode and fields, stale locks, and every live bridge's port. */
export async function lockChecks(
  runtime: Runtime,
  locks: readonly BridgeLock[],
  opts: { cli: string; signal?: AbortSignal },
): Promise<Check[]> {
  const dir = lockDir(runtime);
  const checks: Check[] = [];
  const dirMode = await runtime.fs.stat(dir).then(
    (s) => s.mode & 0o777,
    () => undefined,
  );
  if (dirMode === undefined)
    return [{ area: "lock", status: "info", summary: `no lock directory yet (${dir}); the first bridge makes it` }];
  if (runtime.platform !== "win32" && (dirMode & 0o077) !== 0) {
    checks.push({
      area: "lock",
      status: "fail",
      summary: `${dir} is mode ${octal(dirMode)}: others can read bridge tokens`,
      fix: `chmod 700 ${dir}`,
    });
  } else {
    checks.push({ area: "lock", status: "ok", summary: `${dir} (mode ${octal(dirMode)}), ${locks.length} lock file(s)` });
  }
  for (const entry of locks) checks.push(...(await oneLock(runtime, entry, opts)));
  return checks;
}

async function oneLock(runtime: Runtime, entry: BridgeLock, opts: { cli: string; signal?: AbortSignal }): Promise<Check[]> {
  const { cli } = opts;
  const name = `${entry.port}.lock (${entry.lock.ideName ?? "IDE"}, pid ${entry.lock.pid ?? "?"})`;
  if (entry.problem === "dead") {
    return [
      {
        area: "lock",
        status: "warn",
        summary: `${name}: stale, ${PROBLEMS.dead}`,
        fix: `rm ${entry.path} (the next bridge start removes it too)`,
      },
    ];
  }
  if (!entry.lock.isBridge) return [{ area: "lock", status: "info", summary: `${name}: another IDE's lock; the shim prefers bridges` }];
  const checks: Check[] = [];
  const mode = await runtime.fs.lstat(entry.path).then(
    (s) => s.mode & 0o777,
    () => undefined,
  );
  const missing = (["workspace", "ideName", "authToken"] as const).filter((k) => entry.lock[k] === undefined);
  if (entry.lock.workspaceFolders.length === 0) missing.push("workspace");
  const problems = [
    ...(mode !== undefined && runtime.platform !== "win32" && (mode & 0o077) !== 0 ? [`mode ${octal(mode)} (should be 600)`] : []),
    ...(missing.length > 0 ? [`missing ${[...new Set(missing)].join(", ")}`] : []),
    ...(entry.problem !== undefined ? [PROBLEMS[entry.problem]] : []),
  ];
  if (problems.length > 0)
    checks.push({
      area: "lock",
      status: "fail",
      summary: `${name}: ${problems.join("; ")}`,
      fix: `restart that bridge (${cli} stop --port ${entry.port}); it writes its lock anew`,
    });
  else checks.push({ area: "lock", status: "ok", summary: `${name}: mode ${mode === undefined ? "?" : octal(mode)}, fields complete` });
  try {
    const response = await fetch(`http://127.0.0.1:${entry.port}/ping`, { signal: probeDeadline(HTTP_TIMEOUT_MS, opts.signal) });
    await response.body?.cancel();
    checks.push(
      response.ok
        ? { area: "port", status: "ok", summary: `${entry.port} answers` }
        : {
            area: "port",
            status: "fail",
            summary: `${entry.port} answers /ping with HTTP ${response.status}: not a bridge?`,
            fix: `${cli} stop --port ${entry.port}`,
          },
    );
  } catch (err) {
    checks.push({
      area: "port",
      status: "fail",
      summary: `${entry.port} does not answer (${errorMessage(err)}) although pid ${entry.lock.pid ?? "?"} runs`,
      fix: `stop that process, or remove ${entry.path}`,
    });
  }
  return checks;
}

function octal(mode: number): string {
  return mode.toString(8).padStart(3, "0");
}
