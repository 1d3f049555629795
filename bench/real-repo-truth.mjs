// Whether the bridge's TypeScript answers are true on a real checkout (hono was where they were
// not: first references answers of 16/51 labelled complete, a rename reported "0 introduced" that
// broke the spec project). Tests cannot fetch a repository, so this is a bench given one:
//  - truth: TypeScript 7's server asked directly, one file of every tsconfig project of the
//    checkout opened (so every project is loaded), the union of its answers until three in a row
//    add nothing;
//  - first answers: findReferences of each symbol as the first calls of a fresh bridge: how many
//    locations against the truth, whether it said complete or partial, and what it named besides;
//  - rename (BENCH_RENAME=file:Old:New): renameSymbol on a copy of the checkout (its node_modules
//    linked), then the compiler's error count of each project before and after and the old name's
//    whole-word mentions left in .ts files: what the bridge claimed against what the compiler says.
// Usage: npm run build && BENCH_WORKSPACE=<checkout, its dependencies installed>
//   BENCH_SYMBOLS=src/http-exception.ts:HTTPException,src/context.ts:Context
//   [BENCH_RENAME=src/http-exception.ts:HTTPException:HttpError] node bench/real-repo-truth.mjs
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { realpath } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { register } from "tsx/esm/api";

register();
const { stopAllBridges } = await import(new URL("../test/helpers/spawn-bridge.ts", import.meta.url).href);
const { TSGO } = await import(new URL("../test/helpers/lsp-repo-checks.ts", import.meta.url).href);
const { benchBridge, locationLines } = await import("./mcp-bridge.mjs");
const { startDirectServer } = await import("./lsp-direct.mjs");

const root = await realpath(process.env.BENCH_WORKSPACE ?? "");
const symbols = (process.env.BENCH_SYMBOLS ?? "")
  .split(",")
  .filter(Boolean)
  .map((spec) => declaration(root, spec.split(":")));
const SKIP = new Set(["node_modules", ".git", "dist", "build", "coverage"]);

/** Where `name` is declared in `file` of `dir`: its line (1-based) and column (0-based). */
function declaration(dir, [file, name]) {
  const lines = readFileSync(join(dir, file), "utf8").split("\n");
  const declares = new RegExp(`\\b(class|function|const|let|interface|type|enum)\\s+${name}\\b`);
  const index = lines.findIndex((line) => declares.test(line));
  if (index < 0) throw new Error(`${name} is not declared in ${file}`);
  return { file, name, line: index + 1, character: lines[index].search(new RegExp(`\\b${name}\\b`)) };
}

/** Every tsconfig*.json under `top` outside dependencies and build output, relative to it. */
function tsconfigs(top, dir = top, out = []) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIP.has(entry.name) || entry.name.startsWith(".")) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) tsconfigs(top, path, out);
    else if (/^tsconfig.*\.json$/.test(entry.name)) out.push(relative(top, path));
  }
  return out;
}

/** One source file of the project, or undefined for a solution with no files of its own. */
function oneFileOf(dir, project) {
  const run = spawnSync(TSGO, ["-p", project, "--listFilesOnly"], { cwd: dir, encoding: "utf8", maxBuffer: 64 << 20 });
  return run.stdout
    .split("\n")
    .map((line) => line.trim())
    .find((path) => path.startsWith(`${dir}/`) && !path.includes("/node_modules/") && /\.(ts|tsx|mts|cts)$/.test(path));
}

async function truthAnswers() {
  const projects = tsconfigs(root);
  const opened = [...new Set(projects.map((project) => oneFileOf(root, project)).filter(Boolean))];
  const server = await startDirectServer([TSGO, "--lsp", "--stdio"], { root, open: symbols[0].file, languageId: "typescript" });
  try {
    for (const path of opened) {
      const uri = `file://${path}`;
      server.connection.sendNotification("textDocument/didOpen", {
        textDocument: { uri, languageId: "typescript", version: 1, text: readFileSync(path, "utf8") },
      });
    }
    const out = {};
    for (const symbol of symbols) {
      const ask = async () => {
        const found = await server.connection.sendRequest("textDocument/references", {
          textDocument: { uri: `file://${join(root, symbol.file)}` },
          position: { line: symbol.line - 1, character: symbol.character },
          context: { includeDeclaration: true },
        });
        return new Set((found ?? []).map((loc) => `${relative(root, new URL(loc.uri).pathname)}:${loc.range.start.line + 1}`));
      };
      // The server answers from the projects loaded so far: the union of its answers, asked until
      // three in a row add nothing (a second apart).
      const answer = await ask();
      for (let quiet = 0; quiet < 3; ) {
        await new Promise((resolve) => setTimeout(resolve, 1000));
        const before = answer.size;
        for (const location of await ask()) answer.add(location);
        quiet = answer.size === before ? quiet + 1 : 0;
      }
      out[symbol.name] = answer;
    }
    return { projects: projects.length, opened: opened.length, answers: out };
  } finally {
    await server.stop();
  }
}

async function firstAnswers(truth) {
  const bridge = await benchBridge(root, { name: "bench-real-repo-truth", timeoutMs: 300_000 });
  const rows = [];
  try {
    for (const symbol of symbols) {
      const t0 = performance.now();
      const result = await bridge.callTool("findReferences", {
        file: symbol.file,
        line: symbol.line,
        symbol: symbol.name,
        verbosity: "minimal",
        maxResults: 5000,
      });
      const text = result.content[0]?.text ?? "";
      const found = locationLines(text);
      const expected = truth.answers[symbol.name];
      rows.push({
        symbol: symbol.name,
        ms: Math.round(performance.now() - t0),
        found: found.size,
        truth: expected.size,
        missing: [...expected].filter((x) => !found.has(x)).length,
        extra: [...found].filter((x) => !expected.has(x)).length,
        differences: [
          ...[...expected].filter((x) => !found.has(x)).map((x) => `-${x}`),
          ...[...found].filter((x) => !expected.has(x)).map((x) => `+${x}`),
        ].slice(0, 8),
        said: /^PARTIAL/m.test(text) ? "partial" : /\(complete\)/.test(text) ? "complete" : "neither",
        head: text.split("\n").slice(0, 2).join(" / ").slice(0, 240),
      });
    }
  } finally {
    await bridge.stop();
  }
  return rows;
}

/** Error lines per project, the compiler run in the copy with its build info kept out of it. */
function compilerErrors(dir, projects) {
  const counts = {};
  for (const project of projects) {
    const info = mkdtempSync(join(tmpdir(), "bench-real-info-"));
    const run = spawnSync(TSGO, ["-p", project, "--noEmit", "--pretty", "false", "--tsBuildInfoFile", join(info, "x.tsbuildinfo")], {
      cwd: dir,
      encoding: "utf8",
      maxBuffer: 64 << 20,
    });
    rmSync(info, { recursive: true, force: true });
    counts[project] = run.stdout.split("\n").filter((line) => /error TS\d+/.test(line)).length;
  }
  return counts;
}

async function rename(spec) {
  const [file, oldName, newName] = spec.split(":");
  const symbol = declaration(root, [file, oldName]);
  const copy = await realpath(mkdtempSync(join(tmpdir(), "bench-real-rename-")));
  try {
    cpSync(root, copy, { recursive: true, filter: (src) => !src.split("/").includes("node_modules") && !src.includes("/.git/") });
    symlinkSync(join(root, "node_modules"), join(copy, "node_modules"));
    const projects = tsconfigs(copy).filter((p) => oneFileOf(copy, p) !== undefined);
    const before = compilerErrors(copy, projects);
    const bridge = await benchBridge(copy, { name: "bench-real-repo-rename", timeoutMs: 600_000 });
    let claim;
    const t0 = performance.now();
    try {
      const result = await bridge.callTool("renameSymbol", { file, line: symbol.line, symbol: oldName, newName });
      claim = (result.content[0]?.text ?? "").split("\n").slice(0, 6).join(" / ").slice(0, 600);
    } finally {
      await bridge.stop();
    }
    const ms = Math.round(performance.now() - t0);
    const after = compilerErrors(copy, projects);
    const left = execFileSync("rg", ["-n", "-w", "--type", "ts", oldName, "."], { cwd: copy, encoding: "utf8" }).trim();
    return { ms, claim, before, after, linesStillNamingOld: left ? left.split("\n") : [] };
  } catch (err) {
    if (err.status === 1 && err.stdout === "") return { error: "rg found nothing" };
    throw err;
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}

try {
  const t0 = performance.now();
  const truth = await truthAnswers();
  console.log(
    `truth: TypeScript 7 directly, ${truth.opened} files opened for ${truth.projects} tsconfigs, ${Math.round(performance.now() - t0)} ms`,
  );
  const rows = await firstAnswers(truth);
  for (const row of rows) {
    console.log(
      `${row.symbol}: first answer ${row.found}/${row.truth} (missing ${row.missing}, extra ${row.extra}), said ${row.said}, ${row.ms} ms`,
    );
  }
  const complete = rows.filter((r) => r.missing === 0 && r.extra === 0).length;
  const falseComplete = rows.filter((r) => r.said === "complete" && r.missing > 0).length;
  console.log(`first answers complete ${complete}/${rows.length}; said complete and were not: ${falseComplete}`);
  console.log(JSON.stringify(rows, null, 1));
  if (process.env.BENCH_RENAME) {
    const outcome = await rename(process.env.BENCH_RENAME);
    console.log(JSON.stringify(outcome, null, 1));
  }
} finally {
  await stopAllBridges();
}
