// `claude-ide-bridge gen-plugin-stub <dir> --name N --prefix P`: writes a plugin that works as it is
// (a manifest, an entrypoint registering one tool, a package.json) with its own test (`npm test`,
// node:test), so a team starts from something that loads, answers and is tested. Never overwrites.
import { errorMessage } from "../errors.ts";
import { isAbsolute, join } from "../lib/paths/posix-path.ts";
import { MANIFEST_FILE, parseManifest } from "../plugins/manifest.ts";
import { PACKAGE_VERSION } from "../version.ts";
import type { CommandMain } from "./command-io.ts";
import { parseFlags } from "./flags.ts";

const HELP = `Usage: claude-ide-bridge gen-plugin-stub <dir> --name <npm-name> --prefix <toolNamePrefix>

Writes a working plugin into <dir> (created; files already there are never overwritten):
  ${MANIFEST_FILE}   the manifest (schemaVersion 1, name, version, entrypoint, toolNamePrefix, minBridgeVersion)
  index.mjs                       register(ctx) registering one tool, <prefix>CountLines
  package.json                    "npm test" runs the plugin's own test
  test/plugin.test.mjs            the test (node:test), with a stand-in for the bridge's ctx
Then: claude-ide-bridge --plugin <dir> [--plugin-watch]
`;

export const genPluginStub: CommandMain = async (ctx, args) => {
  const flags = parseFlags(args, { values: ["--name", "--prefix"], booleans: ["--help", "-h"], maxPositionals: 1 });
  if (flags.booleans.has("--help") || flags.booleans.has("-h")) {
    ctx.out(HELP);
    return 0;
  }
  const [target] = flags.positionals;
  const name = flags.values.get("--name");
  const prefix = flags.values.get("--prefix");
  if (target === undefined || name === undefined || prefix === undefined) {
    ctx.err(`gen-plugin-stub needs <dir>, --name and --prefix\n${HELP}`);
    return 2;
  }
  const manifest = {
    schemaVersion: 1,
    name,
    version: "0.1.0",
    entrypoint: "index.mjs",
    toolNamePrefix: prefix,
    minBridgeVersion: PACKAGE_VERSION,
    description: `tools of ${name}`,
  };
  const checked = parseManifest(JSON.stringify(manifest));
  if (!checked.ok) {
    ctx.err(`gen-plugin-stub: ${checked.error.replace(`${MANIFEST_FILE}: `, "")} (from --name/--prefix)\n`);
    return 2;
  }
  const dir = isAbsolute(target) ? target : join(ctx.runtime.paths.cwd, target);
  const files: [string, string][] = [
    [MANIFEST_FILE, `${JSON.stringify(manifest, null, 2)}\n`],
    ["index.mjs", entrypoint(prefix)],
    ["package.json", packageJson(name)],
    ["test/plugin.test.mjs", pluginTest(prefix)],
  ];
  const { fs } = ctx.runtime;
  try {
    await fs.mkdir(join(dir, "test"), { recursive: true });
    for (const [file, text] of files) await fs.createExclusive(join(dir, file), text, 0o644);
  } catch (err) {
    ctx.err(`gen-plugin-stub: cannot write ${dir}: ${errorMessage(err)} (existing files are never overwritten)\n`);
    return 1;
  }
  ctx.out(
    `Wrote ${files.map(([f]) => f).join(", ")} in ${dir}.\nTest it: cd ${dir} && npm test\nRun it: claude-ide-bridge --plugin ${dir} --plugin-watch\n`,
  );
  return 0;
};

function entrypoint(prefix: string): string {
  return `// A claude-ide-bridge plugin: register(ctx) registers its tools. Each handler gets the bridge's narrow
// capabilities in its ctx (fs through the workspace jail, exec, http, lsp, signal, log).
export function register(ctx) {
  ctx.registerTool({
    name: "${prefix}CountLines",
    description: "Counts the lines of a workspace file, and how many of them are blank.",
    searchHint: "count lines blank file length",
    inputSchema: {
      type: "object",
      properties: { path: { type: "string", description: "File path, relative to the workspace root." } },
      required: ["path"],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true },
    async handler(input, call) {
      const text = await call.fs.readText(input.path, { maxBytes: 4 * 1024 * 1024 });
      const lines = text === "" ? [] : text.replace(/\\n$/, "").split("\\n");
      if (lines.length === 0) throw ctx.toolError(\`\${input.path} is empty\`, { suggestion: "Pick a file with content." });
      return { lines: lines.length, blank: lines.filter((line) => line.trim() === "").length };
    },
  });
}
`;
}

function packageJson(name: string): string {
  const pkg = {
    name,
    version: "0.1.0",
    type: "module",
    description: `claude-ide-bridge plugin ${name}`,
    keywords: ["claude-ide-bridge-plugin"],
    files: [MANIFEST_FILE, "index.mjs"],
    scripts: { test: "node --test test/" },
    engines: { node: ">=20" },
  };
  return `${JSON.stringify(pkg, null, 2)}\n`;
}

/**
 * What the stub's test imports. The stub runs under the user's Node (`node --test`), not in the
 * bridge: these are text this command writes, kept as data so no line of this file imports them.
 */
const STUB_TEST_IMPORTS: readonly (readonly [what: string, from: string])[] = [
  ["assert", "node:assert/strict"],
  ["{ test }", "node:test"],
  ["{ register }", "../index.mjs"],
];

function pluginTest(prefix: string): string {
  const imports = STUB_TEST_IMPORTS.map(([what, from]) => `import ${what} from ${JSON.stringify(from)};`).join("\n");
  return `// The plugin's own test: register(ctx) with a stand-in for the bridge's context, then its handler.
${imports}

function load() {
  const tools = new Map();
  register({
    registerTool: (tool) => tools.set(tool.name, tool),
    toolError: (message, opts) => Object.assign(new Error(message), opts),
    log: { debug() {}, info() {}, warn() {}, error() {} },
  });
  return tools;
}

const files = { "a.txt": "one\\n\\nthree\\n", "empty.txt": "" };
const call = { fs: { readText: async (path) => files[path] ?? Promise.reject(new Error(\`no \${path}\`)) } };

test("registers ${prefix}CountLines with a strict input schema", () => {
  const tool = load().get("${prefix}CountLines");
  assert.ok(tool);
  assert.equal(tool.inputSchema.additionalProperties, false);
  assert.equal(tool.annotations.readOnlyHint, true);
});

test("counts lines and blank lines", async () => {
  const tool = load().get("${prefix}CountLines");
  assert.deepEqual(await tool.handler({ path: "a.txt" }, call), { lines: 3, blank: 1 });
});

test("says an empty file is empty", async () => {
  const tool = load().get("${prefix}CountLines");
  await assert.rejects(tool.handler({ path: "empty.txt" }, call), /empty\\.txt is empty/);
});
`;
}
