// What kind of project the workspace root is, from its marker files alone (no commands run), so it
// is cheap and safe to ask first: getProjectInfo answers with it, getProjectContext and
// contextBundle build on it.
import * as v from "valibot";
import { ToolError, errorMessage } from "../../errors.ts";
import { basename } from "../../lib/paths/posix-path.ts";
import type { ToolContext } from "../../capabilities/context.ts";
import { NodeInfo, goModule, parsePackageJson, tomlTableString } from "./project-markers.ts";

const KINDS = ["node", "typescript", "deno", "rust", "go", "python", "java", "make"] as const;
type Kind = (typeof KINDS)[number];

/** Marker file -> the kind it signals. */
const MARKERS: Readonly<Record<string, Kind>> = {
  "package.json": "node",
  "tsconfig.json": "typescript",
  "deno.json": "deno",
  "deno.jsonc": "deno",
  "Cargo.toml": "rust",
  "go.mod": "go",
  "pyproject.toml": "python",
  "requirements.txt": "python",
  "setup.py": "python",
  "pom.xml": "java",
  "build.gradle": "java",
  "build.gradle.kts": "java",
  Makefile: "make",
};

/** Marker files larger than this are not parsed (a real manifest is far smaller). */
const MAX_MANIFEST_BYTES = 1024 * 1024;

export const ProjectInfo = v.object({
  root: v.pipe(v.string(), v.description("Real absolute path of the workspace root.")),
  name: v.pipe(v.string(), v.description("package.json name, else the root folder's name.")),
  kinds: v.pipe(v.array(v.picklist(KINDS)), v.description("Project kinds detected from marker files.")),
  markers: v.pipe(v.array(v.string()), v.description("Marker and lock files found at the root.")),
  git: v.pipe(v.boolean(), v.description("Whether the root has a .git directory or file.")),
  node: v.optional(NodeInfo),
  rust: v.optional(v.object({ crate: v.optional(v.string()) })),
  go: v.optional(v.object({ module: v.optional(v.string()) })),
  python: v.optional(v.object({ name: v.optional(v.string()) })),
  java: v.optional(v.object({ buildTool: v.picklist(["maven", "gradle"]) })),
  warnings: v.pipe(v.array(v.string()), v.description("Marker files that could not be read or parsed.")),
});
export type ProjectInfo = v.InferOutput<typeof ProjectInfo>;

const LOCKS = ["package-lock.json", "pnpm-lock.yaml", "yarn.lock", "bun.lockb", "bun.lock"];

/** What getProjectInfo answers; getProjectContext and contextBundle build on it. */
export async function detectProject(ctx: ToolContext): Promise<ProjectInfo> {
  const root = ctx.fs.root;
  const names = new Set((await ctx.fs.list(".")).map((e) => e.name));
  const markers = [...Object.keys(MARKERS), ...LOCKS].filter((m) => names.has(m)).sort();
  const kinds = new Set<Kind>(markers.flatMap((m) => (MARKERS[m] ? [MARKERS[m]] : [])));
  const info: ProjectInfo = { root, name: basename(root), kinds: [], markers, git: names.has(".git"), warnings: [] };
  const read = (file: string) => (names.has(file) ? readManifest(ctx, file, info.warnings) : Promise.resolve(undefined));

  const pkg = await read("package.json");
  if (pkg !== undefined) {
    try {
      info.node = parsePackageJson(pkg, names);
      if (info.node.name) info.name = info.node.name;
    } catch (err) {
      info.warnings.push(`package.json could not be parsed: ${errorMessage(err)}`);
    }
  }
  const cargo = await read("Cargo.toml");
  if (kinds.has("rust")) info.rust = { crate: cargo === undefined ? undefined : tomlTableString(cargo, { table: "package", key: "name" }) };
  const goMod = await read("go.mod");
  if (kinds.has("go")) info.go = { module: goMod === undefined ? undefined : goModule(goMod) };
  const pyproject = await read("pyproject.toml");
  if (kinds.has("python")) {
    info.python = {
      name:
        pyproject === undefined
          ? undefined
          : (tomlTableString(pyproject, { table: "project", key: "name" }) ??
            tomlTableString(pyproject, { table: "tool.poetry", key: "name" })),
    };
  }
  if (kinds.has("java")) info.java = { buildTool: names.has("pom.xml") ? "maven" : "gradle" };
  if (info.node && hasTypeScriptDependency(pkg)) kinds.add("typescript");
  info.kinds = KINDS.filter((k) => kinds.has(k));
  return info;
}

async function readManifest(ctx: ToolContext, file: string, warnings: string[]): Promise<string | undefined> {
  try {
    return await ctx.fs.readText(file, { maxBytes: MAX_MANIFEST_BYTES });
  } catch (err) {
    const why = err instanceof ToolError ? err.message : errorMessage(err);
    return warn(warnings, `${file} could not be read: ${why}`);
  }
}

function warn(warnings: string[], message: string): undefined {
  warnings.push(message);
  return undefined;
}

/** A TypeScript project without a root tsconfig.json still lists `typescript` as a dependency. */
function hasTypeScriptDependency(pkg: string | undefined): boolean {
  return pkg !== undefined && /"typescript"\s*:/.test(pkg);
}
