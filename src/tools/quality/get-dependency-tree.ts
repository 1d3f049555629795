// getDependencyTree: the project's dependency tree, as the package manager resolved it (npm ls,
// cargo tree, go mod graph), to a depth, or inverted to show why one package is there.
import * as v from "valibot";
import { ToolError } from "../../errors.ts";
import { checkedFilter } from "../../capabilities/exec/toolchain.ts";
import { isRecord, readProjectFacts } from "../../services/diagnostics/project-facts.ts";
import { JsonTextError, parseJsonCooperatively } from "../../lib/text/cooperative-json.ts";
import type { ToolContext } from "../../capabilities/context.ts";
import { defineTool } from "../platform/define-tool.ts";
import { renderGoGraph, renderNpmTree } from "./dependency-trees.ts";

const MANAGERS = ["npm", "cargo", "go"] as const;
type Manager = (typeof MANAGERS)[number];

export default defineTool({
  name: "getDependencyTree",
  title: "Dependency tree",
  description:
    "Shows the project's resolved dependency tree (npm ls, cargo tree, go mod graph) to a depth, or which packages pull in one package.",
  searchHint: "dependency tree dependencies npm ls cargo tree go mod graph why package installed",
  input: v.strictObject({
    depth: v.optional(
      v.pipe(
        v.number(),
        v.integer(),
        v.minValue(0),
        v.maxValue(20),
        v.description("Levels below the project (default 1: direct dependencies)."),
      ),
    ),
    package: v.optional(
      v.pipe(v.string(), v.minLength(1), v.maxLength(214), v.description("Show only the paths to this package (why it is installed).")),
    ),
    manager: v.optional(v.pipe(v.picklist(MANAGERS), v.description("Default: from package.json, Cargo.toml or go.mod."))),
  }),
  annotations: { readOnlyHint: true },
  timeoutMs: 120_000,
  largeResult: true,
  async handler(input, ctx) {
    const manager = input.manager ?? (await detectManager(ctx));
    const depth = input.depth ?? 1;
    const pkg = input.package === undefined ? undefined : checkedFilter(input.package, "package name");
    if (manager === "npm") {
      const project = await readProjectFacts(ctx);
      // Nothing to resolve: say so without seconds of npm start-up.
      if (
        project.deps.size === 0 &&
        !isRecord(project.packageJson?.optionalDependencies) &&
        !isRecord(project.packageJson?.peerDependencies)
      ) {
        return `${String(project.packageJson?.name ?? "(root)")}@${String(project.packageJson?.version ?? "")}\n(no dependencies in package.json)`;
      }
      const result = await run(ctx, "npm", [
        "ls",
        "--json",
        `--depth=${pkg === undefined ? depth : Infinity}`,
        ...(pkg === undefined ? [] : [pkg]),
      ]);
      return renderNpmTree(await parseJson(result.stdout, "npm ls", result.stderr));
    }
    if (manager === "cargo") {
      const result = await run(ctx, "cargo", [
        "tree",
        "--depth",
        String(pkg === undefined ? depth : 100),
        ...(pkg === undefined ? [] : ["--invert", pkg]),
      ]);
      if (result.exitCode !== 0) throw failed("cargo tree", result.stderr);
      return result.stdout.trimEnd();
    }
    const result = await run(ctx, "go", ["mod", "graph"]);
    if (result.exitCode !== 0) throw failed("go mod graph", result.stderr);
    const graph =
      pkg === undefined
        ? result.stdout
        : result.stdout
            .split("\n")
            .filter((l) => l.includes(pkg))
            .join("\n");
    return renderGoGraph(graph, depth);
  },
});

async function detectManager(ctx: ToolContext): Promise<Manager> {
  const { names } = await readProjectFacts(ctx);
  if (names.has("package.json")) return "npm";
  if (names.has("Cargo.toml")) return "cargo";
  if (names.has("go.mod")) return "go";
  throw new ToolError("not_detected", "No package.json, Cargo.toml or go.mod at the workspace root", {
    suggestion: "Pass manager, or ask from the package's own directory.",
  });
}

function run(ctx: ToolContext, program: string, args: string[]) {
  return ctx.exec.runToolchain(program, { args, timeoutMs: 100_000, maxOutputBytes: 16 * 1024 * 1024, env: { NO_COLOR: "1" } });
}

/** npm ls --json of a big project is megabytes: read in turns. */
async function parseJson(stdout: string, what: string, stderr: string): Promise<Record<string, unknown>> {
  try {
    const value = await parseJsonCooperatively(stdout);
    if (isRecord(value)) return value;
  } catch (err) {
    // Reported below with what the tool said.
    if (!(err instanceof JsonTextError)) throw err;
  }
  throw failed(what, stderr || stdout);
}

function failed(what: string, output: string): ToolError {
  return new ToolError("tool_failed", `${what} failed: ${output.trim().split("\n").slice(-5).join("\n").slice(0, 1500)}`, {
    suggestion: "Install the dependencies first (npm install, cargo fetch, go mod download).",
  });
}
