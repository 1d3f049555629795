// Reads what the marker files at a project root say: the parsing half of getProjectInfo, kept
// apart so each format's quirks stay in one small function.
import * as v from "valibot";

const PackageManager = v.picklist(["npm", "pnpm", "yarn", "bun"]);
type PackageManager = v.InferOutput<typeof PackageManager>;

export const NodeInfo = v.object({
  name: v.optional(v.string()),
  version: v.optional(v.string()),
  type: v.pipe(v.string(), v.description('"module" or "commonjs" (the default when package.json has no "type").')),
  scripts: v.pipe(v.array(v.string()), v.description("Names of the npm scripts.")),
  dependencies: v.number(),
  devDependencies: v.number(),
  packageManager: v.optional(PackageManager),
});
export type NodeInfo = v.InferOutput<typeof NodeInfo>;

/** Lock files in order of precedence: the first one present names the package manager. */
const LOCK_FILES: readonly [string, PackageManager][] = [
  ["pnpm-lock.yaml", "pnpm"],
  ["yarn.lock", "yarn"],
  ["bun.lock", "bun"],
  ["bun.lockb", "bun"],
  ["package-lock.json", "npm"],
];

/** Throws (with a readable message) when package.json is not a JSON object. */
export function parsePackageJson(text: string, names: ReadonlySet<string>): NodeInfo {
  const data: unknown = JSON.parse(text);
  if (!isRecord(data)) throw new Error("package.json is not a JSON object");
  const str = (key: string) => {
    const value = data[key];
    return typeof value === "string" ? value : undefined;
  };
  const count = (key: string) => {
    const value = data[key];
    return isRecord(value) ? Object.keys(value).length : 0;
  };
  const fromLock = LOCK_FILES.find(([file]) => names.has(file))?.[1];
  // The "packageManager" field (corepack) names it when no lock file does, e.g. "pnpm@9.1.0".
  const fromField = v.safeParse(PackageManager, str("packageManager")?.split("@")[0]);
  return {
    name: str("name"),
    version: str("version"),
    type: str("type") ?? "commonjs",
    scripts: isRecord(data.scripts) ? Object.keys(data.scripts) : [],
    dependencies: count("dependencies"),
    devDependencies: count("devDependencies"),
    packageManager: fromLock ?? (fromField.success ? fromField.output : undefined),
  };
}

/** `name = "..."` in the given TOML table; enough for Cargo.toml and pyproject.toml. */
export function tomlTableString(text: string, at: { table: string; key: string }): string | undefined {
  const { table, key } = at;
  let inTable = false;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line.startsWith("[")) {
      inTable = line === `[${table}]`;
      continue;
    }
    if (!inTable) continue;
    const m = new RegExp(`^${key}\\s*=\\s*["']([^"']*)["']`).exec(line);
    if (m) return m[1];
  }
  return undefined;
}

/** The `module` line of go.mod. */
export function goModule(text: string): string | undefined {
  return /^module\s+(\S+)/m.exec(text)?.[1];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
