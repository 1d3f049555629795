// The official MCP conformance suite (@modelcontextprotocol/conformance 0.2.0-alpha.12, run on
// Node 22 as it requires: `npx -p node@22` fetches that Node once) against the real bridge, for
// both requirement sets: 2025-11-25 (initialize, sessions) and 2026-07-28 (stateless, server/
// discover, header checks, caching, the wire-schema check on every message). The suite sends no
// auth header, so a loopback proxy adds the bearer token and forwards everything else as received.
// Scenarios that need the conformance repo's fixture tools/resources/prompts are listed in
// conformance-baseline-<revision>.yml with the reason for each (whole scenarios, or single checks
// as `<scenario>:<check>`); any other failure or warning, or a listed entry that starts passing,
// fails the run (exit code 1).
import { execFile, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAuthProxy, type AuthProxy } from "../helpers/auth-proxy.ts";
import { REPO_ROOT, startBridgeProcess, type BridgeProcess } from "../helpers/spawn-bridge.ts";

const CONFORMANCE_ENTRY = join(REPO_ROOT, "node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js");
const NODE_22 = "node@22.23.3";
const RUN_TIMEOUT_MS = 300_000;

interface Requirements {
  revision: "2025-11-25" | "2026-07-28";
  /** Scenarios with no failing check at all. */
  mustPass: string[];
}

const REQUIREMENTS: Requirements[] = [
  {
    revision: "2025-11-25",
    mustPass: [
      "server-initialize",
      "ping",
      "logging-set-level",
      "tools-list",
      "tools-call-simple-text",
      "tools-call-error",
      "server-sse-multiple-streams",
      "resources-list",
      "prompts-list",
      "dns-rebinding-protection",
      "server-session-lifecycle",
    ],
  },
  {
    revision: "2026-07-28",
    mustPass: [
      "tools-list",
      "tools-call-simple-text",
      "tools-call-error",
      "server-sse-multiple-streams",
      "resources-list",
      "sep-2164-resource-not-found",
      "prompts-list",
      "dns-rebinding-protection",
      "caching",
      "http-header-validation",
      "input-required-result-unsupported-methods",
      "input-required-result-ignore-extra-params",
      "input-required-result-validate-input",
      "tasks-status-notifications",
    ],
  },
];

interface Check {
  id: string;
  name: string;
  status: "SUCCESS" | "FAILURE" | "WARNING" | "INFO" | "SKIPPED";
  errorMessage?: string;
}

let bridge: BridgeProcess;
let proxy: AuthProxy;
let node22: string;

beforeAll(async () => {
  // Default settings on purpose: each legacy scenario opens a session and never DELETEs it, which
  // the default pool (--max-sessions 64) must hold.
  bridge = await startBridgeProcess();
  proxy = await startAuthProxy({ port: bridge.port, token: bridge.token });
  node22 = await nodeTwentyTwo();
}, 180_000);

afterAll(async () => {
  await proxy?.close();
  await bridge?.stop();
});

/** The path of a Node 22 binary, fetched by npx into its cache (the suite needs Node >= 22). */
function nodeTwentyTwo(): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile("npx", ["-y", "-p", NODE_22, "-c", "command -v node"], { timeout: 170_000 }, (err, stdout, stderr) => {
      const path = stdout.trim().split("\n").at(-1) ?? "";
      if (err || !path.startsWith("/")) reject(new Error(`could not get ${NODE_22} through npx: ${err?.message ?? ""}\n${stderr}`));
      else resolve(path);
    });
  });
}

function runConformance(args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(node22, [CONFORMANCE_ENTRY, ...args], { cwd: REPO_ROOT, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (output += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (output += d));
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`conformance did not finish within ${RUN_TIMEOUT_MS} ms; output so far:\n${output}`));
    }, RUN_TIMEOUT_MS);
    child.once("error", reject);
    child.once("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

/** checks.json of each scenario, keyed by scenario name (dirs are server-<scenario>-<timestamp>). */
async function readChecks(dir: string): Promise<Map<string, Check[]>> {
  const byScenario = new Map<string, Check[]>();
  for (const entry of await readdir(dir)) {
    const m = /^server-(.+)-\d{4}-\d\d-\d\dT/.exec(entry);
    const file = join(dir, entry, "checks.json");
    if (m?.[1] && existsSync(file)) byScenario.set(m[1], JSON.parse(await readFile(file, "utf8")) as Check[]);
  }
  return byScenario;
}

describe.each(REQUIREMENTS)("conformance, requirements $revision", ({ revision, mustPass }) => {
  it(
    "passes everything but the fixture-bound scenarios of the baseline",
    async () => {
      if (!existsSync(CONFORMANCE_ENTRY)) throw new Error(`${CONFORMANCE_ENTRY} missing: run \`npm ci\``);
      const outDir = await mkdtemp(join(tmpdir(), `conformance-${revision}-`));
      try {
        const baseline = join(REPO_ROOT, "test", "e2e", `conformance-baseline-${revision}.yml`);
        const started = Date.now();
        const { code, output } = await runConformance([
          "server",
          "--url",
          `${proxy.url}/mcp`,
          "--requirements",
          revision,
          "--expected-failures",
          baseline,
          "-o",
          outDir,
        ]);
        const summaryAt = output.indexOf("=== SUMMARY ===");
        const summary = summaryAt >= 0 ? output.slice(summaryAt) : output.slice(-6000);
        const checks = await readChecks(outDir);
        const problems: string[] = [];
        for (const scenario of mustPass) {
          const list = checks.get(scenario);
          if (!list) problems.push(`${scenario}: no results`);
          for (const c of list?.filter((c) => c.status === "FAILURE" || c.status === "WARNING") ?? [])
            problems.push(`${scenario}: ${c.id}: ${c.errorMessage ?? "failed"}`);
        }
        expect(problems, `${problems.join("\n")}\n${summary}`).toEqual([]);
        expect(code, `conformance exit code; output:\n${output.slice(-6000)}`).toBe(0);
        const all = [...checks.values()].flat();
        const passed = all.filter((c) => c.status === "SUCCESS").length;
        const failed = all.filter((c) => c.status === "FAILURE").length;
        process.stderr.write(
          `conformance ${revision}: ${passed} checks passed, ${failed} failed, all in fixture-bound scenarios of the baseline (${((Date.now() - started) / 1000).toFixed(1)} s)\n`,
        );
      } finally {
        await rm(outDir, { recursive: true, force: true });
      }
    },
    RUN_TIMEOUT_MS + 30_000,
  );
});
