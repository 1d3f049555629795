// What the workspace root says about its tools, read once per call: which files are there, the
// package.json dependencies, and any marker file's text on demand. Checkers, linters, formatters,
// auditors and test runners choose from this; nothing is run to find out.
import type { ToolContext } from "../../capabilities/context.ts";

const MAX_MANIFEST_BYTES = 1024 * 1024;

export interface ProjectFacts {
  readonly names: ReadonlySet<string>;
  readonly packageJson: Record<string, unknown> | undefined;
  /** dependencies and devDependencies of package.json. */
  readonly deps: ReadonlySet<string>;
  /** A root file's text ("" when absent or unreadable). */
  read(file: string): Promise<string>;
  /** Whether a root file name starts with one of the prefixes (".eslintrc", "vitest.config."). */
  hasFile(...prefixes: string[]): boolean;
}

export async function readProjectFacts(ctx: Pick<ToolContext, "fs">): Promise<ProjectFacts> {
  const names = new Set((await ctx.fs.list(".")).map((e) => e.name));
  const texts = new Map<string, Promise<string>>();
  const read = (file: string) => {
    let text = texts.get(file);
    if (text === undefined) {
      text = names.has(file) ? ctx.fs.readText(file, { maxBytes: MAX_MANIFEST_BYTES }).catch(() => "") : Promise.resolve("");
      texts.set(file, text);
    }
    return text;
  };
  const packageJson = parseObject(await read("package.json"));
  const deps = new Set<string>();
  for (const key of ["dependencies", "devDependencies"]) {
    const table = packageJson?.[key];
    if (isRecord(table)) for (const name of Object.keys(table)) deps.add(name);
  }
  return { names, packageJson, deps, read, hasFile: (...prefixes) => [...names].some((n) => prefixes.some((p) => n.startsWith(p))) };
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return isRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
}
